/** Check 5 for Codex: `codex mcp get --json` reads a snippet as the test does. */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import type { Launch, Snippet } from "../pack-snippets.js";
import { record } from "./report.js";
import { cleanEnv, exec, lastLines } from "./run.js";

/** Codex's own reading of the snippet as ~/.codex/config.toml, against the test's. */
export async function codexReads(
  bin: string,
  snippet: Snippet,
  launches: Launch[],
  home: string,
): Promise<void> {
  const codexHome = join(home, ".codex");
  await mkdir(codexHome, { recursive: true });
  await writeFile(join(codexHome, "config.toml"), `${snippet.text}\n`);
  for (const l of launches) {
    const got = await exec(bin, ["mcp", "get", l.server, "--json"], {
      cwd: home,
      env: cleanEnv({ HOME: home, CODEX_HOME: codexHome }),
      timeoutMs: 60_000,
    });
    let read: {
      transport?: { command?: string; args?: string[]; env?: Record<string, string> };
      startup_timeout_sec?: number;
    } = {};
    try {
      read = JSON.parse(got.stdout) as typeof read;
    } catch {
      // reported below
    }
    const t = read.transport ?? {};
    const ok =
      got.code === 0 &&
      t.command === l.command &&
      isDeepStrictEqual(t.args, l.args) &&
      isDeepStrictEqual(t.env ?? {}, l.env) &&
      read.startup_timeout_sec === l.startupTimeoutSec;
    record(
      `Codex reads ${snippet.name} (${l.server})`,
      ok,
      got.code === 0
        ? `codex mcp get --json: ${t.command} ${(t.args ?? []).join(" ")}, env ${Object.keys(t.env ?? {}).join(", ")}, startup_timeout_sec ${read.startup_timeout_sec}`
        : lastLines(got.stderr + got.stdout, 2),
    );
  }
}
