import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { applyControl, FAILED_SOURCE_MESSAGE, type Testkit } from "../src/index.js";
import { arr, call, obj, sleep, startKit } from "./helpers.js";

let kit: Testkit;
let done: () => Promise<void>;
beforeEach(async () => {
  ({ kit, done } = await startKit());
});
afterEach(async () => done());

const sweep = (query = "protein") =>
  call(kit, "POST", "/api/search/sweep", { query, repositories: ["arxiv"] });

async function execution(id: unknown): Promise<Record<string, unknown>> {
  return obj((await call(kit, "GET", `/api/executions/${String(id)}`)).json);
}

async function waitFor(id: unknown, status: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 300; i++) {
    const e = await execution(id);
    if (e.status === status) return e;
    await sleep(20);
  }
  throw new Error(`execution ${String(id)} never reached ${status}`);
}

describe("holding runs in flight", () => {
  it("a held run stays running past its duration and ends when released", async () => {
    kit.setAdmission({ runDurationMs: 30 });
    kit.holdRuns();
    const id = obj((await sweep()).json).execution_id;
    await sleep(300);
    expect((await execution(id)).status).toBe("running");
    kit.releaseRuns();
    expect((await execution(id)).status).toBe("completed");
  });

  it("a run started after the release ends on its own again", async () => {
    kit.setAdmission({ runDurationMs: 30 });
    kit.holdRuns();
    kit.releaseRuns();
    await waitFor(obj((await sweep()).json).execution_id, "completed");
  });
});

describe("filling resmon's run slots", () => {
  it("occupies every free slot with running executions: sweeps get 429 + Retry-After, routine fires queue", async () => {
    kit.setAdmission({ maxConcurrent: 2, queueLimit: 1, runDurationMs: 30 });
    const ids = kit.fillSlots();
    expect(ids).toHaveLength(2);
    const rows = arr((await call(kit, "GET", "/api/executions?limit=5")).json).map(obj);
    for (const id of ids) expect(rows.find((e) => e.id === id)?.status).toBe("running");
    await sleep(200);
    const refused = await sweep();
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("5");
    const queued = await call(kit, "POST", "/api/routines/2/run");
    expect(queued.status).toBe(202);
    expect(obj(queued.json)).toMatchObject({ queued: true, queue_position: 1 });
    expect((await call(kit, "POST", "/api/routines/1/run")).status).toBe(409);

    // The queued routine's run starts at freeSlots(): long enough to be seen running on a loaded machine.
    kit.setAdmission({ maxConcurrent: 2, queueLimit: 1, runDurationMs: 60_000 });
    kit.freeSlots();
    for (const id of ids) expect((await execution(id)).status).toBe("completed");
    const after = arr((await call(kit, "GET", "/api/executions?limit=5")).json).map(obj);
    expect(after.some((e) => e.routine_id === 2 && e.status === "running")).toBe(true);
    expect((await sweep()).status).toBe(200);
  });

  it("takes a given number of slots, leaving the rest free", async () => {
    kit.setAdmission({ maxConcurrent: 3 });
    expect(kit.fillSlots(2)).toHaveLength(2);
    expect((await sweep()).status).toBe(200);
    expect((await sweep()).status).toBe(429);
  });
});

describe("failing sweeps", () => {
  it("unavailable: the POST answers 503 and starts nothing, for the given number of sweeps", async () => {
    const before = arr((await call(kit, "GET", "/api/executions?limit=500")).json).length;
    kit.failSweeps("unavailable", { times: 2 });
    expect((await sweep()).status).toBe(503);
    expect((await sweep()).status).toBe(503);
    expect(arr((await call(kit, "GET", "/api/executions?limit=500")).json)).toHaveLength(before);
    expect((await sweep()).status).toBe(200);
  });

  it("unavailable without a count lasts until switched off; a malformed body is still 422 first", async () => {
    kit.failSweeps("unavailable");
    for (let i = 0; i < 3; i++) expect((await sweep()).status).toBe(503);
    expect((await call(kit, "POST", "/api/search/sweep", { query: "x" })).status).toBe(422);
    kit.failSweeps(null);
    expect((await sweep()).status).toBe(200);
  });

  it("run_failed: the sweep is admitted and its run ends failed, every source recording the upstream error", async () => {
    kit.setAdmission({ runDurationMs: 30 });
    kit.failSweeps("run_failed", { times: 1 });
    const started = await call(kit, "POST", "/api/search/sweep", {
      query: "protein",
      repositories: ["arxiv", "pubmed"],
    });
    expect(started.status).toBe(200);
    const failed = await waitFor(obj(started.json).execution_id, "failed");
    expect(failed.error_message).toBe(FAILED_SOURCE_MESSAGE);
    const coverage = JSON.stringify(failed.coverage);
    expect(coverage).toContain(FAILED_SOURCE_MESSAGE);
    const record = obj((await call(kit, "GET", `/api/executions/${String(failed.id)}/search-record`)).json);
    expect(arr(record.sources).map((s) => obj(s).status)).toEqual(["error", "error"]);
    // Only sweeps fail, and only as many as asked.
    const routine = obj((await call(kit, "POST", "/api/routines/2/run")).json).execution_id;
    await waitFor(routine, "completed");
    await waitFor(obj((await sweep()).json).execution_id, "completed");
  });
});

describe("restart", () => {
  it("gives a new runtime_id and token, and a held run ends interrupted by the restart", async () => {
    kit.setAdmission({ runDurationMs: 30 });
    kit.holdRuns();
    const id = obj((await sweep()).json).execution_id;
    const before = { runtime: kit.runtimeId, token: kit.token };
    const stale = kit.token;
    await kit.restart();
    expect(kit.runtimeId).not.toBe(before.runtime);
    expect(kit.token).not.toBe(before.token);
    expect(
      (await call(kit, "GET", "/api/health", undefined, { authorization: `Bearer ${stale}` })).status,
    ).toBe(401);
    const e = await execution(id);
    expect(e).toMatchObject({ status: "interrupted", interrupted_reason: "daemon_restart" });
    // Holding is a test setting and outlives the restart.
    const next = obj((await sweep()).json).execution_id;
    await sleep(200);
    expect((await execution(next)).status).toBe("running");
    kit.releaseRuns();
    expect((await execution(next)).status).toBe("completed");
  });
});

describe("the same controls as lines (what the CLI reads on stdin)", () => {
  it("applies each control and answers it, refusing what it does not know", async () => {
    expect(await applyControl(kit, "admission max_concurrent=1 run_duration_ms=40")).toEqual({
      control: "admission",
      ok: true,
    });
    const filled = await applyControl(kit, "fill-slots");
    expect(filled).toMatchObject({ ok: true, execution_ids: [expect.any(Number)] });
    expect((await sweep()).status).toBe(429);
    await applyControl(kit, "free-slots");
    expect(await applyControl(kit, "fail-sweeps unavailable 1")).toEqual({
      control: "fail-sweeps",
      ok: true,
      mode: "unavailable",
      times: 1,
    });
    expect((await sweep()).status).toBe(503);
    expect((await sweep()).status).toBe(200);
    const old = kit.runtimeId;
    const restarted = await applyControl(kit, "restart");
    expect(restarted).toEqual({ control: "restart", ok: true, port: kit.port, runtime_id: kit.runtimeId });
    expect(kit.runtimeId).not.toBe(old);
    for (const bad of ["fly", "fill-slots many", "fail-sweeps sometimes", "admission max_concurrent=0"]) {
      expect(await applyControl(kit, bad)).toMatchObject({ ok: false, error: expect.any(String) });
    }
  });
});
