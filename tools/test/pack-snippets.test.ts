/**
 * The server README's harness snippets, read as each harness reads them. That they actually start
 * the packed server against a resmon is pack-check's job (`pnpm pack:check`); this checks what can
 * be checked without a tarball: each parses, pins this package's version, sets only variables the
 * server reads, and carries no token.
 */
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  extractSnippets,
  hasTomllib,
  KNOWN_VARIABLES,
  type Launch,
  launchFromClaudeCli,
  launchFromMcpJson,
  launchFromShell,
  launchOf,
  PIN,
  PINNING_DOCS,
  readServerSnippets,
  SERVER_DIR,
  type Snippet,
  shellWords,
} from "../src/pack-snippets.js";

const pkg = JSON.parse(await readFile(resolve(SERVER_DIR, "package.json"), "utf8")) as { version: string };
const PINNED = `@resmon/mcp-server@${pkg.version}`;
const tomlReader = await hasTomllib();

let snippets: Snippet[] = [];
const launches = new Map<string, Launch>();
beforeAll(async () => {
  snippets = await readServerSnippets();
  for (const s of snippets) {
    const launch = await launchOf(s);
    if (launch) launches.set(s.name, launch);
  }
});

describe("the server README's harness snippets", { timeout: 30_000 }, () => {
  it("has one for each harness the README promises", () => {
    expect(snippets.map((s) => s.name)).toEqual([
      "claude-cli",
      "claude-cli-instance",
      "claude-mcp-json",
      "codex-toml",
      "codex-toml-read-only",
      "cursor-json",
      "any-shell",
    ]);
  });

  it("each starts npx with the pinned package version", () => {
    for (const launch of launches.values()) {
      expect(launch.command, launch.snippet).toBe("npx");
      expect(launch.args, launch.snippet).toEqual(["-y", PINNED]);
    }
    expect(launches.size).toBe(tomlReader ? snippets.length : snippets.length - 2);
  });

  it("each sets only variables the server reads, and never a token", () => {
    for (const launch of launches.values()) {
      for (const [name, value] of Object.entries(launch.env)) {
        expect(KNOWN_VARIABLES, `${launch.snippet}: ${name}`).toContain(name);
        expect(value, launch.snippet).not.toMatch(/[A-Za-z0-9_-]{43,}/);
      }
    }
    for (const s of snippets) expect(s.text.toLowerCase(), s.name).not.toContain("token");
  });

  it("the read-only Codex snippet is read-only, the others are not", () => {
    for (const launch of launches.values()) {
      const readOnly = launch.env.RESMON_MCP_READ_ONLY;
      expect(readOnly, launch.snippet).toBe(launch.snippet.endsWith("read-only") ? "1" : undefined);
    }
  });

  it.skipIf(!tomlReader)("the Codex snippets give a start-up timeout", () => {
    for (const name of ["codex-toml", "codex-toml-read-only"]) {
      expect(launches.get(name)?.startupTimeoutSec).toBeGreaterThanOrEqual(30);
    }
  });
});

describe("pinned versions in the docs", () => {
  it("every @resmon/<package>@x.y.z in the READMEs and docs is the current version", async () => {
    let pins = 0;
    for (const file of PINNING_DOCS) {
      const text = await readFile(file, "utf8").catch(() => "");
      for (const m of text.matchAll(PIN)) {
        pins++;
        expect(m[2], `${file}: ${m[0]}`).toBe(pkg.version);
      }
    }
    expect(pins).toBeGreaterThan(7);
  });
});

describe("the snippet readers refuse what a harness would refuse", () => {
  it("splits command lines as a shell does", () => {
    expect(shellWords(`a "b c" 'd e' f\\\n  g h\\ i`)).toEqual(["a", "b c", "d e", "f", "g", "h i"]);
    expect(() => shellWords(`a "b`)).toThrow(/unterminated/);
  });

  it("reads claude mcp add's options and the command after --", () => {
    const l = launchFromClaudeCli("x", "claude mcp add -s user resmon -e RESMON_PORT=1 -- npx -y p@1");
    expect(l).toEqual({ snippet: "x", command: "npx", args: ["-y", "p@1"], env: { RESMON_PORT: "1" } });
    expect(() => launchFromClaudeCli("x", "claude mcp add resmon npx -y p")).toThrow(/--/);
    expect(() => launchFromClaudeCli("x", "claude mcp add other -- npx")).toThrow(/resmon/);
    expect(() => launchFromClaudeCli("x", "claude mcp add resmon --env NOVALUE -- npx")).toThrow(
      /NAME=value/,
    );
  });

  it("reads env assignments before a command", () => {
    expect(launchFromShell("x", "A=1 B='2 3' npx -y p")).toEqual({
      snippet: "x",
      command: "npx",
      args: ["-y", "p"],
      env: { A: "1", B: "2 3" },
    });
  });

  it("refuses malformed or misshapen JSON", () => {
    expect(() =>
      launchFromMcpJson("x", '{"mcpServers": {"resmon": {"command": "npx", "args": [1]}}}'),
    ).toThrow(/args/);
    expect(() => launchFromMcpJson("x", '{"mcpServers": {"other": {}}}')).toThrow(/missing/);
    expect(() => launchFromMcpJson("x", '{"mcpServers": {')).toThrow();
    expect(() =>
      launchFromMcpJson("x", '{"mcpServers": {"resmon": {"command": "npx", "args": [], "env": {"A": 1}}}}'),
    ).toThrow(/env/);
  });

  it.skipIf(!tomlReader)("refuses TOML that does not parse", async () => {
    await expect(
      launchOf({ name: "x", lang: "toml", text: "[mcp_servers.resmon\ncommand = 1" }),
    ).rejects.toThrow(/TOML/);
  });

  it("finds snippets only after a marker", () => {
    const md = "```sh\nnot this\n```\n<!-- snippet: a-b -->\n```json\n{}\n```\n";
    expect(extractSnippets(md)).toEqual([{ name: "a-b", lang: "json", text: "{}" }]);
  });
});
