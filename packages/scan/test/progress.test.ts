/**
 * Progress through the plain callback (progress.ts): a call that retrieves says each sweep or corpus
 * search finished of those planned and then the candidates pooled; scan_verify says each paper
 * checked of those ranked and then the evidence written; a call with nothing long to do says
 * nothing; within a call the count never goes back.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ScanEngine, ScanProgress } from "../src/index.js";
import { type Rig, rig } from "./helpers/backend.js";
import { driveToEnd } from "./helpers/model.js";
import { startArgs } from "./helpers/plan.js";

let r: Rig;
beforeEach(async () => {
  r = await rig();
});
afterEach(async () => {
  await r.close();
});

/** The engine with a progress callback on every mutating call, each call's reports kept. */
function watched(engine: ScanEngine) {
  const calls: { name: string; events: ScanProgress[] }[] = [];
  const on = (name: string) => {
    const events: ScanProgress[] = [];
    calls.push({ name, events });
    return { onProgress: (p: ScanProgress) => events.push(p) };
  };
  const wrapped: ScanEngine = {
    ...engine,
    start: (a, b) => engine.start(a, b, on("start")),
    continue: (a, b) => engine.continue(a, b, on("continue")),
    verify: (a, b) => engine.verify(a, b, on("verify")),
  };
  return { calls, engine: wrapped };
}

describe("scan progress", () => {
  it("retrieval, pooling and verification are reported as they go, and never go back within a call", async () => {
    const { calls, engine } = watched(r.engine());
    const args = startArgs({ retrieval: "both" });
    const seen = await driveToEnd(engine, await engine.start(args));
    expect(seen.at(-1)?.next_action).toBe("complete");

    const start = calls[0]?.events ?? [];
    // 6 queries, each a sweep and a corpus search: 12 retrievals, and the pooling as the last unit.
    expect(start[0]).toMatchObject({ stage: "retrieve", done: 0, total: 13 });
    expect(start[0]?.message).toMatch(
      /^Retrieval: 0 of 6 sweeps, 0 of 6 corpus searches finished; 0 records returned so far/,
    );
    for (const c of calls)
      for (let i = 1; i < c.events.length; i++) {
        const [a, b] = [c.events[i - 1] as ScanProgress, c.events[i] as ScanProgress];
        if (a.stage === b.stage) expect(b.done, `${c.name} ${b.message}`).toBeGreaterThanOrEqual(a.done);
      }
    // Every retrieval finished in some call, and the round was pooled, in words a person can read.
    const retrieval = calls.flatMap((c) => c.events).filter((e) => e.stage === "retrieve" && e.total === 13);
    const pooled = retrieval.find((e) => e.done === 13);
    expect(pooled?.message).toMatch(
      /^Retrieval done: 6 of 6 sweeps, 6 of 6 corpus searches finished; \d+ candidates pooled to screen\.$/,
    );

    const verify = calls.filter((c) => c.name === "verify").flatMap((c) => c.events);
    const ranked = seen.at(-1)?.payload.rows as unknown[] | undefined;
    expect(verify[0]).toMatchObject({ stage: "verify", done: 0 });
    const last = verify.at(-1) as ScanProgress;
    expect(last.done).toBe(last.total);
    expect(last.message).toMatch(
      /^Verification done: \d+ papers checked against resmon's record; evidence written\.$/,
    );
    expect(verify.map((e) => e.done)).toEqual([...Array(last.total + 1).keys()]);
    expect(ranked?.length ?? 0).toBeLessThanOrEqual(last.total - 1);

    // Each accepted screening batch says how far screening has come.
    const screening = calls.flatMap((c) => c.events).filter((e) => e.stage === "screen");
    const batches = seen.filter((e) => e.next_action === "screen_candidates").length;
    expect(screening[0]?.message).toMatch(/^Screening: batch 1 of \d+ scored \(\d+ papers\)\.$/);
    // One report per accepted batch (again when the expansion adds batches to the total).
    expect([...new Set(screening.map((e) => e.done))]).toEqual([...Array(batches).keys()].map((i) => i + 1));
    expect(screening.at(-1)).toMatchObject({ done: batches, total: batches });
    // A ranking page has nothing long to report.
    const quiet = calls.filter((c) => c.name === "continue" && c.events.length === 0);
    expect(quiet.length).toBeGreaterThan(0);
  });

  it("a listener that throws does not stop the scan", async () => {
    const engine = r.engine();
    const env = await engine.start(startArgs({ retrieval: "corpus" }), undefined, {
      onProgress: () => {
        throw new Error("listener failed");
      },
    });
    expect(env.status).toBe("ok");
  });
});
