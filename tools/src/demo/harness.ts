/**
 * How to point a harness at the demo while `--serve` keeps the stand-in up, written for the platform
 * the demo runs on: a Windows path has backslashes and, often, spaces (`C:\Users\Ada Lovelace\…`),
 * so each format gets it spelled its own way — a command line quoted for that platform's shells, a
 * TOML basic string and a JSON string with each backslash escaped. tools/test/demo-harness.test.ts
 * reads every snippet back as its harness would, for Linux, macOS and Windows paths.
 */
import { heading, out } from "./show.js";

export interface DemoTarget {
  port: number;
  stateDir: string;
  /** The server's bin (dist/resmon-mcp.cjs), started with node. */
  serverBin: string;
}

/**
 * A word for the shell a user on `platform` types into: POSIX shells take anything in single quotes
 * (a single quote itself closed, escaped and reopened); PowerShell and cmd.exe take a double-quoted
 * word with backslashes as they are, but for trailing ones, which the program's own argument parser
 * would join to the closing quote (neither shell has a safe spelling for `"`, refused).
 */
export function shellWord(word: string, platform: NodeJS.Platform): string {
  if (/^[\w./:@=+,-]+$/.test(word)) return word;
  if (platform !== "win32") return `'${word.replaceAll("'", `'\\''`)}'`;
  if (/^[\w./:\\@=+,-]+$/.test(word)) return word;
  if (word.includes('"'))
    throw new Error(`${JSON.stringify(word)} has a double quote: no Windows shell takes it`);
  // A program's argument parser reads a backslash before the closing quote as escaping it: doubled.
  return `"${word.replace(/(\\+)$/, "$1$1")}"`;
}

/** A TOML basic string: JSON's escapes are TOML's, and TOML wants DEL escaped too. */
export function tomlString(text: string): string {
  return JSON.stringify(text).replaceAll("\u007f", "\\u007F");
}

/** The lines that show each harness's snippet for this demo on `platform`. */
export function harnessSnippets(target: DemoTarget, platform: NodeJS.Platform): string[] {
  const env = { RESMON_PORT: String(target.port), RESMON_STATE_DIR: target.stateDir };
  const sh = (w: string) => shellWord(w, platform);
  const lines: string[] = [];
  lines.push(`  Claude Code (${platform === "win32" ? "PowerShell or cmd" : "a shell"}):`);
  lines.push(
    `    ${["claude", "mcp", "add", "resmon", "--env", `RESMON_PORT=${env.RESMON_PORT}`, "--env", `RESMON_STATE_DIR=${env.RESMON_STATE_DIR}`, "--", "node", target.serverBin].map(sh).join(" ")}`,
  );
  lines.push("");
  lines.push(
    `  Codex (${platform === "win32" ? "%USERPROFILE%\\.codex\\config.toml" : "~/.codex/config.toml"}):`,
  );
  lines.push("    [mcp_servers.resmon]");
  lines.push('    command = "node"');
  lines.push(`    args = [${tomlString(target.serverBin)}]`);
  lines.push(
    `    env = { RESMON_PORT = ${tomlString(env.RESMON_PORT)}, RESMON_STATE_DIR = ${tomlString(env.RESMON_STATE_DIR)} }`,
  );
  lines.push("");
  lines.push("  Cursor (.cursor/mcp.json):");
  const cursor = { mcpServers: { resmon: { command: "node", args: [target.serverBin], env } } };
  for (const line of JSON.stringify(cursor, null, 2).split("\n")) lines.push(`    ${line}`);
  return lines;
}

/** Print how to point a harness at this demo (the server is started with node: no npx shim involved). */
export function harnessHelp(port: number, stateDir: string, serverBin: string): void {
  heading("Point a harness at this demo");
  out("  The server needs two things: which resmon (its port) and where that resmon keeps its token");
  out("  (the state directory). The token itself is never written into any configuration.");
  out();
  for (const line of harnessSnippets({ port, stateDir, serverBin }, process.platform)) out(line);
  out();
  out("  Add RESMON_MCP_READ_ONLY=1 to that env for a session that can only read.");
}
