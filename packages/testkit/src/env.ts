import { join } from "node:path";

/**
 * The environment for a process started against the stand-in (the MCP server, a bridge): only what
 * a process needs to run (PATH, HOME, and their Windows/temp kin), so nothing RESMON_* leaks in from
 * the machine running the tests, plus whatever the caller names.
 */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of ["PATH", "HOME", "SYSTEMROOT", "TMPDIR", "TEMP"]) {
    const value = process.env[key];
    if (value !== undefined) env[key] = value;
  }
  return { ...env, ...extra };
}

/**
 * cleanEnv pointing discovery at a stand-in: its port file and state directory, and the scan tools'
 * state beside the stand-in's files (a test's temporary directory), never the user's data dir.
 */
export function serverEnv(
  kit: { portFile: string | null; stateDir: string },
  extra: Record<string, string> = {},
): Record<string, string> {
  return cleanEnv({
    RESMON_PORT_FILE: kit.portFile ?? "",
    RESMON_STATE_DIR: kit.stateDir,
    RESMON_MCP_SCAN_DATA: join(kit.stateDir, "mcp-scans"),
    ...extra,
  });
}
