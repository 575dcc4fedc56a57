/**
 * The bench's memory and first-call parts (issue 31): the floor server is an MCP server on the same
 * SDK with as many tools as the contract's table in both eras; the memory run reads RSS, the peak and the collected heap of any
 * such server; and a call after the opening is timed alone.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TOOLS } from "@resmon/mcp-contract";
import { serverEnv, startTestkit, type Testkit } from "@resmon/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { measureCallAfterOpening, serverOnce } from "../src/bench/coldstart.js";
import { floorServer } from "../src/bench/launch.js";
import { measureMemory } from "../src/bench/memory.js";
import { StdioRpc } from "../src/bench/rpc.js";

const FLOOR = floorServer();

let kit: Testkit;
beforeAll(async () => {
  kit = await startTestkit({ stateDir: mkdtempSync(join(tmpdir(), "resmon-bench-floor-")), seed: "small" });
}, 60_000);
afterAll(async () => {
  await kit?.stop();
  if (kit) rmSync(kit.stateDir, { recursive: true, force: true });
});

describe("the floor server", () => {
  it("lists one tool for each of the table's and answers a health call, on the same SDK", async () => {
    const rpc = new StdioRpc(FLOOR.command, FLOOR.args, serverEnv(kit));
    try {
      await rpc.handshake();
      const list = await rpc.request("tools/list");
      expect((list.message.result as { tools: unknown[] }).tools).toHaveLength(TOOLS.length);
      const call = await rpc.callTool("health", {});
      expect((call.message.result as { isError?: boolean }).isError).toBeUndefined();
    } finally {
      await rpc.close();
    }
  }, 30_000);

  it("with --one-request, answers health with resmon's own, after exactly one request to it", async () => {
    const rpc = new StdioRpc(FLOOR.command, [...FLOOR.args, "--one-request"], serverEnv(kit));
    try {
      await rpc.handshake();
      kit.clearRequests();
      const call = await rpc.callTool("health", {});
      const result = call.message.result as { isError?: boolean; content: { text: string }[] };
      expect(result.isError).toBe(false);
      expect(JSON.parse(result.content[0]?.text ?? "")).toHaveProperty("status");
      expect(kit.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /api/health"]);
    } finally {
      await rpc.close();
    }
  }, 30_000);

  it("starts in both eras, as the server is measured", async () => {
    for (const era of ["legacy", "modern"] as const)
      expect((await serverOnce(FLOOR, serverEnv(kit), true, era)).ms).toBeGreaterThan(0);
  }, 30_000);
});

describe("the memory run", () => {
  it("reads RSS after a forced collection, and the process's own peak", async () => {
    const m = await measureMemory(FLOOR, serverEnv(kit), 20);
    expect(m.forcedGc).toBe(true);
    for (const v of [m.afterStartMiB, m.afterCallsMiB, m.afterTwiceMiB, m.peakMiB])
      expect(v).toBeGreaterThan(20);
    expect(m.heapAfterTwiceMiB).toBeGreaterThan(0);
  }, 30_000);
});

describe("a call after the opening", () => {
  it("times the first call alone a second after the opening, then a warmed call after the same pause", async () => {
    const started = Date.now();
    const [after] = await measureCallAfterOpening(
      [{ label: "floor", launch: FLOOR }],
      serverEnv(kit),
      1,
      "modern",
    );
    // Two pauses: before the first call and before the paused steady one.
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
    expect(after?.samples).toHaveLength(1);
    for (const ms of [after?.median, after?.paused, after?.backToBack]) {
      expect(ms).toBeGreaterThan(0);
      expect(ms).toBeLessThan(1_000);
    }
  }, 60_000);
});
