/**
 * Check 5: every harness snippet in the server README, read as its harness reads it and started as
 * written (see pack-snippets.ts), each in its own HOME.
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { Testkit } from "@resmon/testkit";
import type { Tools } from "../npm-tools.js";
import { harnessOf, type Launch, launchesOf, readServerSnippets } from "../pack-snippets.js";
import { claudeCliSnippet, claudeMcpJson } from "./claude.js";
import { codexReads } from "./codex.js";
import { fillIn, type Where } from "./fill.js";
import { homeFor, tryLaunch } from "./launch.js";
import { record } from "./report.js";
import { pool } from "./run.js";

/** Every README snippet, three at a time; the Codex snippet's start-up timeout. */
export async function snippets(
  work: string,
  where: Where,
  kit: Testkit,
  tools: Tools | undefined,
): Promise<number | undefined> {
  let codexTimeout: number | undefined;
  await pool(await readServerSnippets(), 3, async (snippet) => {
    const launches = await launchesOf(snippet).catch((error: unknown) => {
      record(`README snippet ${snippet.name}`, false, error instanceof Error ? error.message : "unreadable");
      return [] as Launch[];
    });
    if (launches === undefined) {
      record(`README snippet ${snippet.name}`, false, "no TOML reader (python3 with tomllib) to read it");
      return;
    }
    const home = await homeFor(work, snippet.name, kit);
    const project = join(where.app, "projects", snippet.name);
    await mkdir(project, { recursive: true });
    const harness = harnessOf(snippet.name);
    const claude = tools ? { bin: tools.bin("claude"), home, project } : undefined;
    const toTry = launches.map((l) => fillIn(l, where));
    if (harness === "claude-cli" && claude && launches[0])
      toTry[0] = await claudeCliSnippet(claude, snippet, launches[0], where);
    if (harness === "claude-mcp-json" && claude) await claudeMcpJson(claude, snippet, launches, where);
    if (harness === "codex") {
      for (const l of launches) if (l.startupTimeoutSec !== undefined) codexTimeout = l.startupTimeoutSec;
      if (tools) await codexReads(tools.bin("codex"), snippet, launches, home);
    }
    for (const l of toTry) await tryLaunch(`README snippet ${snippet.name} (${l.server})`, l, home, project);
  });
  return codexTimeout;
}
