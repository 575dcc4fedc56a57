/**
 * The snippets `pnpm demo --serve` prints, read back as each harness reads them, on each platform
 * (issue 45): a Linux or macOS path with a space and a quote, a Windows path with backslashes and a
 * space. The command line is split as that platform's shells and argument parser split it; the TOML
 * is parsed by tomllib, the JSON by JSON.parse; each must give back exactly the paths and port.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { type DemoTarget, harnessSnippets, shellWord, tomlString } from "../src/demo/harness.js";
import { demoStopSignals } from "../src/demo/stop.js";
import { launchFromClaudeCli, parseToml, shellWords } from "../src/pack-snippets.js";
import { windowsWords } from "../src/platform-check/commands.js";

/** Python's tomllib reads the TOML, as in pack-snippets.test.ts; without it that case is skipped. */
const HAVE_TOMLLIB = spawnSync("python3", ["-c", "import tomllib"]).status === 0;

const TARGETS: Record<"linux" | "darwin" | "win32", DemoTarget> = {
  linux: {
    port: 40123,
    stateDir: "/tmp/resmon-demo-a b'c",
    serverBin: "/home/ada/my clones/resmon-mcp/packages/mcp-server/dist/resmon-mcp.cjs",
  },
  darwin: {
    port: 40124,
    stateDir: "/var/folders/xy/T/resmon-demo-Q1",
    serverBin: "/Users/Ada Lovelace/resmon-mcp/packages/mcp-server/dist/resmon-mcp.cjs",
  },
  win32: {
    port: 40125,
    stateDir: "C:\\Users\\Ada Lovelace\\AppData\\Local\\Temp\\resmon-demo-Q1",
    serverBin: "C:\\Users\\Ada Lovelace\\resmon-mcp\\packages\\mcp-server\\dist\\resmon-mcp.cjs",
  },
};

function block(lines: string[], title: RegExp): string {
  const start = lines.findIndex((l) => title.test(l));
  const rest = lines.slice(start + 1);
  const end = rest.findIndex((l) => l.trim() === "");
  return (end < 0 ? rest : rest.slice(0, end)).map((l) => l.replace(/^ {4}/, "")).join("\n");
}

describe("pnpm demo --serve's harness snippets, read back on each platform", () => {
  for (const [platform, target] of Object.entries(TARGETS) as [keyof typeof TARGETS, DemoTarget][]) {
    const lines = harnessSnippets(target, platform);
    const want = { RESMON_PORT: String(target.port), RESMON_STATE_DIR: target.stateDir };

    it(`${platform}: the Claude Code line gives back the port, the state dir and the bin`, () => {
      const line = block(lines, /Claude Code/);
      if (platform === "win32") {
        const words = windowsWords(line);
        expect(words.slice(0, 4)).toEqual(["claude", "mcp", "add", "resmon"]);
        expect(words).toContain(`RESMON_STATE_DIR=${target.stateDir}`);
        expect(words.slice(-3)).toEqual(["--", "node", target.serverBin]);
      } else {
        const launch = launchFromClaudeCli("demo", line);
        expect(launch.env).toEqual(want);
        expect([launch.command, ...launch.args]).toEqual(["node", target.serverBin]);
      }
    });

    it.skipIf(!HAVE_TOMLLIB)(`${platform}: the Codex TOML parses to the same values`, async () => {
      const doc = (await parseToml(block(lines, /Codex/))) as {
        mcp_servers: { resmon: { command: string; args: string[]; env: Record<string, string> } };
      };
      expect(doc.mcp_servers.resmon).toEqual({ command: "node", args: [target.serverBin], env: want });
    });

    it(`${platform}: the Cursor JSON parses to the same values`, () => {
      const doc = JSON.parse(block(lines, /Cursor/)) as { mcpServers: { resmon: unknown } };
      expect(doc.mcpServers.resmon).toEqual({ command: "node", args: [target.serverBin], env: want });
    });
  }

  it("names Codex's config where that platform keeps it", () => {
    expect(harnessSnippets(TARGETS.win32, "win32").join("\n")).toContain(
      "%USERPROFILE%\\.codex\\config.toml",
    );
    expect(harnessSnippets(TARGETS.darwin, "darwin").join("\n")).toContain("~/.codex/config.toml");
  });
});

describe("quoting one word", () => {
  it("POSIX: single quotes, a quote inside closed and reopened; plain words as they are", () => {
    expect(shellWord("/a b/c'd", "linux")).toBe(`'/a b/c'\\''d'`);
    expect(shellWords(shellWord("/a b/c'd", "linux"))).toEqual(["/a b/c'd"]);
    expect(shellWord("RESMON_PORT=1", "darwin")).toBe("RESMON_PORT=1");
    expect(shellWord("C:\\x", "linux")).toBe("'C:\\x'");
  });

  it("Windows: double quotes only when needed, trailing backslashes doubled, a double quote refused", () => {
    expect(shellWord("C:\\x\\y", "win32")).toBe("C:\\x\\y");
    expect(shellWord("C:\\A B\\", "win32")).toBe('"C:\\A B\\\\"');
    expect(windowsWords(shellWord("C:\\A B\\", "win32"))).toEqual(["C:\\A B\\"]);
    expect(() => shellWord('C:\\a"b', "win32")).toThrow(/double quote/);
  });

  it("TOML: backslashes escaped, and DEL, which JSON leaves bare", () => {
    expect(tomlString("C:\\x")).toBe('"C:\\\\x"');
    expect(tomlString("a\u007fb")).toBe('"a\\u007Fb"');
  });
});

describe("the demo's stop signals", () => {
  it("on Windows Ctrl-Break too; SIGTERM only where it exists", () => {
    expect(demoStopSignals("win32")).toEqual(["SIGINT", "SIGBREAK", "SIGHUP"]);
    expect(demoStopSignals("linux")).toEqual(["SIGINT", "SIGTERM", "SIGHUP"]);
  });
});
