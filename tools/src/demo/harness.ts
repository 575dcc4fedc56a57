import { heading, out } from "./show.js";

/** How to point a harness at the demo while `--serve` keeps the stand-in up. */
export function harnessHelp(port: number, stateDir: string, serverBin: string): void {
  const env = { RESMON_PORT: String(port), RESMON_STATE_DIR: stateDir };
  heading("Point a harness at this demo");
  out("  The server needs two things: which resmon (its port) and where that resmon keeps its token");
  out("  (the state directory). The token itself is never written into any configuration.");
  out();
  out("  Claude Code:");
  out(
    `    claude mcp add resmon --env RESMON_PORT=${env.RESMON_PORT} --env RESMON_STATE_DIR=${stateDir} -- node ${serverBin}`,
  );
  out();
  out("  Codex (~/.codex/config.toml):");
  out("    [mcp_servers.resmon]");
  out('    command = "node"');
  out(`    args = [${JSON.stringify(serverBin)}]`);
  out(`    env = { RESMON_PORT = "${env.RESMON_PORT}", RESMON_STATE_DIR = ${JSON.stringify(stateDir)} }`);
  out();
  out("  Cursor (.cursor/mcp.json):");
  const cursor = { mcpServers: { resmon: { command: "node", args: [serverBin], env } } };
  for (const line of JSON.stringify(cursor, null, 2).split("\n")) out(`    ${line}`);
  out();
  out("  Add RESMON_MCP_READ_ONLY=1 to that env for a session that can only read.");
}
