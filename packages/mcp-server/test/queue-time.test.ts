/**
 * Time a call waits in the server's own queue is not read as resmon's slowness (issue 34: 200
 * concurrent calls, 130 answered backend_unavailable "took longer than 30 seconds" though only 72
 * reached resmon). Through the SDK Client over stdio, against the stand-in with list_routines' one
 * request answered 1 s late: 32 calls at once go through the server's 8 places in four waves, so
 * the last wave waits ~3 s before its request is sent. Each call's deadline (2.5 s) counts from when
 * its own work starts, so every one answers; counted from arrival, the last two waves gave up.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { serverEnv, startTestkit, type Testkit } from "@resmon/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isError, parsed } from "./helpers/mcp.js";
import { CLI, HAVE_CLI } from "./helpers/spawn.js";

let kit: Testkit;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "resmon-mcp-queue-"));
  kit = await startTestkit({ stateDir: dir, seed: "small" });
}, 30_000);
afterAll(async () => {
  await kit?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!HAVE_CLI)("a call queued behind the server's own 8 places", () => {
  it("is not given up on for time it spent waiting there", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI],
      env: serverEnv(kit, { RESMON_MCP_TIMEOUT_MS: "2500" }),
      stderr: "ignore",
    });
    const client = new Client({ name: "queue", version: "0" });
    await client.connect(transport);
    try {
      // Discovery and the route list first, so every call below makes the one slow request.
      expect(isError(await client.callTool({ name: "health", arguments: {} }))).toBe(false);
      kit.setFault("/api/routines", { kind: "delay", ms: 1_000 }, { method: "GET" });
      const started = Date.now();
      const results = await Promise.all(
        Array.from({ length: 32 }, () =>
          client.callTool({ name: "list_routines", arguments: {} }, { timeout: 60_000 }),
        ),
      );
      const failed = results.filter(isError).map((r) => parsed(r));
      expect(failed).toEqual([]);
      // Four waves of a 1 s request: the queue was real (a server that ran them all at once would
      // be done in about one second).
      expect(Date.now() - started).toBeGreaterThan(3_000);
    } finally {
      kit.setFault("/api/routines", null, { method: "GET" });
      await client.close();
    }
  }, 60_000);
});
