import { describe, expect, it } from "vitest";
import { runDoctor } from "../src/bin/doctor.js";
import { CLI, cleanEnv, HAVE_CLI } from "./helpers/spawn.js";

/**
 * Opt-in: `resmon-mcp doctor --tools` (src/bin/live-check.ts) against a real running resmon, through the
 * built bin. Any user runs the same check with `npx -y @resmon/mcp-server doctor --tools`.
 *   RESMON_LIVE=1 RESMON_PORT=<port> RESMON_STATE_DIR=<dir> pnpm --filter @resmon/mcp-server run test:live
 * Read-only by default (the server runs with RESMON_MCP_READ_ONLY=1 and every write must be refused);
 * RESMON_LIVE_WRITES=1 is `--writes`: it changes that resmon (a routine and a profile are created,
 * a sweep and a routine run are started, a notification setting is written and put back).
 */
const env = process.env;
/** Runs only when asked, against a real resmon: RESMON_LIVE=1 and RESMON_PORT or RESMON_PORT_FILE set, the bin built. */
const LIVE = env.RESMON_LIVE === "1" && (!!env.RESMON_PORT || !!env.RESMON_PORT_FILE) && HAVE_CLI;
const WRITES = env.RESMON_LIVE_WRITES === "1";

describe.skipIf(!LIVE)("live resmon", () => {
  it("doctor --tools: every answer holds to the contract, and the token is in none", {
    timeout: 600_000,
  }, async () => {
    const named: Record<string, string> = {};
    for (const key of ["RESMON_PORT", "RESMON_PORT_FILE", "RESMON_DB_PATH", "RESMON_STATE_DIR"]) {
      const value = env[key];
      if (value) named[key] = value;
    }
    const lines: string[] = [];
    const code = await runDoctor({
      env: cleanEnv(named),
      tools: true,
      writes: WRITES,
      server: { command: process.execPath, args: [CLI] },
      write: (line) => lines.push(line),
    });
    expect(code, lines.join("\n")).toBe(0);
  });
});
