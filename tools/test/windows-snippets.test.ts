/**
 * The server README's Windows forms (`<!-- windows: NAME -->`, issue 45), read as their harnesses
 * read them: the Claude Code line as a Windows program receives its command line, the JSON parsed,
 * the TOML parsed by tomllib. Each must start `cmd /c npx -y <the pin>` (harnessLaunch's Windows
 * form) and give back drive-qualified paths with single backslashes.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  launchesFromCodexToml,
  launchesFromMcpJson,
  publishedVersion,
  SERVER_README,
} from "../src/pack-snippets.js";
import { harnessLaunch, windowsWords } from "../src/platform-check/commands.js";

const HAVE_TOMLLIB = spawnSync("python3", ["-c", "import tomllib"]).status === 0;
const README = readFileSync(SERVER_README, "utf8");

function windowsBlock(name: string): { lang: string; text: string } {
  const m = new RegExp(`<!-- windows: ${name} -->\\n\`\`\`([a-z]+)\\n([\\s\\S]*?)\\n\`\`\``).exec(README);
  if (!m) throw new Error(`the server README has no Windows block ${name}`);
  return { lang: m[1] ?? "", text: m[2] ?? "" };
}

async function expected(): Promise<{ command: string; args: string[] }> {
  return harnessLaunch("win32", "npx", ["-y", `@resmon/mcp-server@${await publishedVersion()}`]);
}

function expectWindowsPaths(env: Record<string, string>): void {
  expect(Object.keys(env).sort()).toEqual(["RESMON_PORT_FILE", "RESMON_STATE_DIR"]);
  for (const [name, value] of Object.entries(env)) {
    // A drive and a backslash: one place whatever the harness's current drive (@resmon/scan's isFullPath).
    expect(value, name).toMatch(/^[A-Z]:\\[^\\]/);
    expect(value, name).not.toContain("\\\\");
    expect(value, name).toContain(" ");
  }
}

describe("the server README's Windows snippets", () => {
  it("claude-cli: `cmd /c npx -y <pin>` after `--`, each --env one word with its spaces", async () => {
    const { lang, text } = windowsBlock("claude-cli");
    expect(lang).toBe("powershell");
    const words = windowsWords(text);
    expect(words.slice(0, 4)).toEqual(["claude", "mcp", "add", "resmon"]);
    const dashes = words.indexOf("--");
    const want = await expected();
    expect(words.slice(dashes + 1)).toEqual([want.command, ...want.args]);
    const env: Record<string, string> = {};
    const opts = words.slice(4, dashes);
    for (let i = 0; i < opts.length; i += 2) {
      expect(opts[i]).toBe("--env");
      const [k, ...v] = (opts[i + 1] ?? "").split("=");
      env[k ?? ""] = v.join("=");
    }
    expectWindowsPaths(env);
  });

  it("mcp-json: the JSON entry starts cmd /c npx with the pin; its escaped paths read back whole", async () => {
    const { lang, text } = windowsBlock("mcp-json");
    expect(lang).toBe("json");
    const [launch] = launchesFromMcpJson("windows-mcp-json", text);
    const want = await expected();
    expect([launch?.command, ...(launch?.args ?? [])]).toEqual([want.command, ...want.args]);
    expectWindowsPaths(launch?.env ?? {});
  });

  it.skipIf(!HAVE_TOMLLIB)("codex-toml: the same, read by a TOML parser", async () => {
    const { lang, text } = windowsBlock("codex-toml");
    expect(lang).toBe("toml");
    const [launch] = (await launchesFromCodexToml("windows-codex-toml", text)) ?? [];
    const want = await expected();
    expect([launch?.command, ...(launch?.args ?? [])]).toEqual([want.command, ...want.args]);
    expect(launch?.startupTimeoutSec).toBeGreaterThanOrEqual(60);
    expectWindowsPaths(launch?.env ?? {});
  });

  it("the three name the same instance", async () => {
    const json = launchesFromMcpJson("j", windowsBlock("mcp-json").text)[0]?.env;
    const toml = HAVE_TOMLLIB
      ? (await launchesFromCodexToml("t", windowsBlock("codex-toml").text))?.[0]?.env
      : json;
    expect(toml).toEqual(json);
  });
});
