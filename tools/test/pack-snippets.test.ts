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
  FILE_PIN,
  formOf,
  HARNESSES,
  harnessOf,
  hasTomllib,
  KNOWN_VARIABLES,
  type Launch,
  launchesFromMcpJson,
  launchesFromVscodeJson,
  launchesFromZedJson,
  launchesOf,
  launchFromClaudeCli,
  launchFromShell,
  PIN,
  PINNING_DOCS,
  readServerSnippets,
  SERVER_DIR,
  type Snippet,
  shellWords,
} from "../src/pack-snippets.js";

const pkg = JSON.parse(await readFile(resolve(SERVER_DIR, "package.json"), "utf8")) as { version: string };
const tomlReader = await hasTomllib();

let snippets: Snippet[] = [];
const launches: Launch[] = [];
beforeAll(async () => {
  snippets = await readServerSnippets();
  for (const s of snippets) launches.push(...((await launchesOf(s)) ?? []));
});

const isReadOnlyName = (l: Launch) => l.snippet.endsWith("read-only") || l.server.endsWith("read-only");

describe("the server README's harness snippets", { timeout: 30_000 }, () => {
  it("has one for each harness the README promises", () => {
    expect(snippets.map((s) => s.name)).toEqual([
      "shell-clone",
      "shell-tarball",
      "claude-cli",
      "claude-cli-instance",
      "claude-cli-read-only",
      "claude-cli-clone",
      "claude-mcp-json",
      "codex-toml",
      "codex-toml-read-only",
      "cursor-json",
      "vscode-json",
      "claude-desktop-json",
      "windsurf-json",
      "zed-json",
      "shell-any-read-only",
    ]);
    expect(new Set(snippets.map((s) => harnessOf(s.name)))).toEqual(new Set(HARNESSES));
  });

  it("each starts the server in one of the forms the README teaches, with this version", () => {
    for (const launch of launches)
      expect(formOf(launch, pkg.version), `${launch.snippet} ${launch.server}`).toBeDefined();
    const forms = new Set(launches.map((l) => formOf(l, pkg.version)));
    expect(forms).toEqual(new Set(["npx-pinned", "npx-tarball", "node-clone", "node-installed"]));
    // Claude Desktop, started from the desktop, gets absolute paths: never a bare npx or node.
    for (const l of launches.filter((x) => harnessOf(x.snippet) === "claude-desktop"))
      expect(formOf(l, pkg.version), l.server).toBe("node-installed");
  });

  it("each sets only variables the server reads, and never a token", () => {
    for (const launch of launches) {
      for (const [name, value] of Object.entries(launch.env)) {
        expect(KNOWN_VARIABLES, `${launch.snippet}: ${name}`).toContain(name);
        expect(value, launch.snippet).not.toMatch(/[A-Za-z0-9_-]{43,}/);
      }
    }
    for (const s of snippets) expect(s.text.toLowerCase(), s.name).not.toContain("token");
  });

  it("a snippet or entry named read-only is read-only, and no other is", () => {
    for (const launch of launches) {
      expect(launch.env.RESMON_MCP_READ_ONLY, `${launch.snippet} ${launch.server}`).toBe(
        isReadOnlyName(launch) ? "1" : undefined,
      );
    }
  });

  it.skipIf(!tomlReader)("every harness shows how to name an instance and the read-only switch", () => {
    // Claude Code's two ways (the CLI and .mcp.json) count as one harness here.
    const appOf = (l: Launch) =>
      harnessOf(l.snippet) === "claude-mcp-json" ? "claude-cli" : harnessOf(l.snippet);
    for (const harness of HARNESSES.filter((h) => h !== "claude-mcp-json")) {
      const mine = launches.filter((l) => appOf(l) === harness);
      const named = mine.filter(
        (l) => "RESMON_STATE_DIR" in l.env && ("RESMON_PORT" in l.env || "RESMON_PORT_FILE" in l.env),
      );
      expect(named.length, `${harness} names an instance`).toBeGreaterThan(0);
      expect(
        mine.some((l) => l.env.RESMON_MCP_READ_ONLY === "1"),
        `${harness} shows RESMON_MCP_READ_ONLY=1`,
      ).toBe(true);
    }
  });

  it.skipIf(!tomlReader)("the Codex snippets give a start-up timeout", () => {
    const codex = launches.filter((l) => harnessOf(l.snippet) === "codex");
    expect(codex).toHaveLength(2);
    for (const l of codex) expect(l.startupTimeoutSec).toBeGreaterThanOrEqual(30);
  });
});

describe("pinned versions in the docs", () => {
  it("every @resmon/<package>@x.y.z in the READMEs and docs is the current version", async () => {
    let pins = 0;
    for (const file of PINNING_DOCS) {
      const text = await readFile(file, "utf8").catch(() => "");
      for (const m of [...text.matchAll(PIN), ...text.matchAll(FILE_PIN)]) {
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
    expect(l).toEqual({
      snippet: "x",
      server: "resmon",
      command: "npx",
      args: ["-y", "p@1"],
      env: { RESMON_PORT: "1" },
    });
    expect(() => launchFromClaudeCli("x", "claude mcp add resmon npx -y p")).toThrow(/--/);
    expect(() => launchFromClaudeCli("x", "claude mcp add other -- npx")).toThrow(/resmon/);
    expect(() => launchFromClaudeCli("x", "claude mcp add resmon --env NOVALUE -- npx")).toThrow(
      /NAME=value/,
    );
  });

  it("reads env assignments before a command", () => {
    expect(launchFromShell("x", "A=1 B='2 3' npx -y p")).toEqual({
      snippet: "x",
      server: "resmon",
      command: "npx",
      args: ["-y", "p"],
      env: { A: "1", B: "2 3" },
    });
  });

  it("refuses malformed or misshapen JSON", () => {
    expect(() =>
      launchesFromMcpJson("x", '{"mcpServers": {"resmon": {"command": "npx", "args": [1]}}}'),
    ).toThrow(/args/);
    expect(() => launchesFromMcpJson("x", '{"mcpServers": {"other": {}}}')).toThrow(/other/);
    expect(() => launchesFromMcpJson("x", '{"mcpServers": {"resmon": null}}')).toThrow(/missing/);
    expect(() => launchesFromMcpJson("x", '{"mcpServers": {')).toThrow();
    expect(() => launchesFromMcpJson("x", '{"servers": {"resmon": {"command": "npx"}}}')).toThrow(
      /mcpServers/,
    );
    expect(() =>
      launchesFromMcpJson("x", '{"mcpServers": {"resmon": {"command": "npx", "args": [], "env": {"A": 1}}}}'),
    ).toThrow(/env/);
  });

  it("holds VS Code and Zed to their own formats", () => {
    const entry = '{"command": "npx", "args": ["-y", "p"]}';
    expect(() => launchesFromVscodeJson("x", `{"mcpServers": {"resmon": ${entry}}}`)).toThrow(/servers/);
    expect(() => launchesFromVscodeJson("x", `{"servers": {"resmon": ${entry}}}`)).toThrow(/type/);
    expect(
      launchesFromVscodeJson("x", '{"servers": {"resmon": {"type": "stdio", "command": "npx"}}}'),
    ).toHaveLength(1);
    expect(() => launchesFromZedJson("x", '{"context_servers": {"resmon": {"command": "npx"}}}')).toThrow(
      /args/,
    );
    expect(() => launchesFromZedJson("x", `{"mcpServers": {"resmon": ${entry}}}`)).toThrow(/context_servers/);
  });

  it("refuses a block in a format its harness does not read", async () => {
    await expect(launchesOf({ name: "vscode-json", lang: "toml", text: "" })).rejects.toThrow(/reads json/);
    await expect(launchesOf({ name: "emacs", lang: "json", text: "{}" })).rejects.toThrow(/no harness/);
  });

  it.skipIf(!tomlReader)("refuses TOML that does not parse", async () => {
    await expect(
      launchesOf({ name: "codex-x", lang: "toml", text: "[mcp_servers.resmon\ncommand = 1" }),
    ).rejects.toThrow(/TOML/);
  });

  it("finds snippets only after a marker", () => {
    const md = "```sh\nnot this\n```\n<!-- snippet: a-b -->\n```json\n{}\n```\n";
    expect(extractSnippets(md)).toEqual([{ name: "a-b", lang: "json", text: "{}" }]);
  });
});
