/** Check 5 for Claude Code: its CLI reads a snippet (`claude mcp add`, `.mcp.json`) and lists the server connected. */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type Launch, launchFromEntry, type Snippet, shellWords } from "../pack-snippets.js";
import { fillIn, fillWord, type Where } from "./fill.js";
import { describeLaunch, sameLaunch } from "./launch.js";
import { record } from "./report.js";
import { cleanEnv, exec, lastLines } from "./run.js";

export interface Claude {
  bin: string;
  home: string;
  /** A project directory inside the app directory, so `npx` finds the installed tarball. */
  project: string;
}

function claudeRun(c: Claude, args: string[]) {
  return exec(c.bin, args, { cwd: c.project, env: cleanEnv({ HOME: c.home }), timeoutMs: 90_000 });
}

/** `claude mcp list`: does it show this server connected? */
async function claudeConnected(c: Claude, server: string): Promise<{ ok: boolean; line: string }> {
  const list = await claudeRun(c, ["mcp", "list"]);
  const line =
    list.stdout.split("\n").find((l) => l.startsWith(`${server}: `)) ??
    lastLines(list.stdout + list.stderr, 2);
  return { ok: list.code === 0 && /- ✔ Connected$/.test(line), line };
}

/** The entry Claude Code wrote to ~/.claude.json (user scope, or this project's local scope). */
async function claudeStored(c: Claude, server: string): Promise<unknown> {
  const config = JSON.parse(await readFile(join(c.home, ".claude.json"), "utf8")) as {
    mcpServers?: Record<string, unknown>;
    projects?: Record<string, { mcpServers?: Record<string, unknown> }>;
  };
  return config.mcpServers?.[server] ?? config.projects?.[c.project]?.mcpServers?.[server];
}

/** A `claude mcp add` line run by Claude Code's CLI; what it stored is the launch tried after. */
export async function claudeCliSnippet(
  c: Claude,
  snippet: Snippet,
  parsed: Launch,
  where: Where,
): Promise<Launch> {
  const words = shellWords(snippet.text).map((w) => fillWord(w, where));
  const want = fillIn(parsed, where);
  const add = await claudeRun(c, words.slice(1));
  let stored: Launch | undefined;
  try {
    stored = launchFromEntry(
      snippet.name,
      parsed.server,
      await claudeStored(c, parsed.server),
      "claude.json",
    );
  } catch {
    // reported below
  }
  const listed =
    add.code === 0 ? await claudeConnected(c, parsed.server) : { ok: false, line: lastLines(add.stderr) };
  record(
    `Claude Code reads ${snippet.name}`,
    add.code === 0 && stored !== undefined && sameLaunch(stored, want) && listed.ok,
    add.code !== 0
      ? `claude mcp add failed: ${lastLines(add.stderr + add.stdout, 2)}`
      : stored === undefined
        ? "nothing stored in ~/.claude.json"
        : !sameLaunch(stored, want)
          ? `stored ${describeLaunch(stored)}, expected ${describeLaunch(want)}`
          : `claude mcp list: ${listed.line}`,
  );
  return stored ?? want;
}

/** `.mcp.json` in a project Claude Code was told to trust (as answering its prompt records). */
export async function claudeMcpJson(
  c: Claude,
  snippet: Snippet,
  launches: Launch[],
  where: Where,
): Promise<void> {
  const doc = JSON.parse(snippet.text) as { mcpServers: Record<string, Record<string, unknown>> };
  for (const l of launches) {
    const filled = fillIn(l, where);
    doc.mcpServers[l.server] = {
      ...doc.mcpServers[l.server],
      command: filled.command,
      args: filled.args,
      env: filled.env,
    };
  }
  await writeFile(join(c.project, ".mcp.json"), JSON.stringify(doc, null, 2));
  const trusted = { hasTrustDialogAccepted: true, enabledMcpjsonServers: launches.map((l) => l.server) };
  await writeFile(join(c.home, ".claude.json"), JSON.stringify({ projects: { [c.project]: trusted } }));
  for (const l of launches) {
    const listed = await claudeConnected(c, l.server);
    record(`Claude Code reads ${snippet.name} (${l.server})`, listed.ok, `claude mcp list: ${listed.line}`);
  }
}
