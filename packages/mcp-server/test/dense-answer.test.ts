/**
 * A reply well under the body ceiling can still be hostile: a million malformed rows; and so can an
 * argument line well under the line limit. Both checks stop at the first issue, so the call is
 * refused at once rather than building an issue per row (before the fix: about 11 s for this reply
 * on a loaded 2-core machine, after it under 1 s).
 *
 * Each is timed against its floor in the same test, on the same machine at the same moment: the same
 * rows built and sent, refused on one issue only (the field that holds them has the wrong type).
 * An issue per row took several times its floor; a fixed bound (5 s) failed at load 15-40 (6.1 s).
 */
import { describe, expect, it } from "vitest";
import { useFakeSession } from "./helpers/fake-session.js";

const ROWS = 1_500_000;
/** A check that stops at the first issue costs about its floor; an issue per row cost several times it. */
const AT_MOST_FLOORS = 3;
/** Room for the scheduler on a busy machine, far under what an issue per row costs. */
const SLACK_MS = 500;

let denseRows = true;
const rows = () => Array.from({ length: ROWS }, () => ({}));
const { call } = useFakeSession(() => ({
  status: 200,
  body: denseRows
    ? { findings: rows(), counts: {}, cannot_judge: [] }
    : { findings: { rows: rows() }, counts: {}, cannot_judge: [] },
}));

/** The fastest of two calls: a pause of the machine in one does not decide the verdict. */
async function timed(send: () => Promise<{ body: Record<string, unknown> }>) {
  let best = Number.POSITIVE_INFINITY;
  let body: Record<string, unknown> = {};
  for (let i = 0; i < 2; i += 1) {
    const started = performance.now();
    ({ body } = await send());
    best = Math.min(best, performance.now() - started);
  }
  return { ms: best, body };
}

describe("a dense malformed reply under the ceiling", () => {
  it("is upstream_error naming the first bad field, without an issue per row", {
    timeout: 120_000,
  }, async () => {
    denseRows = false;
    const floor = await timed(() => call("get_watchdog_findings", {}));
    denseRows = true;
    const dense = await timed(() => call("get_watchdog_findings", {}));
    expect(floor.body.detail).toEqual({ field: "findings" });
    expect(dense.body.error).toBe("upstream_error");
    expect(dense.body.detail).toEqual({ field: "findings.0.severity" });
    expect(dense.ms, `floor ${floor.ms.toFixed(0)} ms`).toBeLessThan(AT_MOST_FLOORS * floor.ms + SLACK_MS);
  });
});

describe("a dense malformed argument under the line limit", () => {
  it("is invalid_argument naming the first bad item, without an issue per item", {
    timeout: 120_000,
  }, async () => {
    // The same items, under a key whose type is wrong as a whole: one issue.
    const floor = await timed(() =>
      call("search_corpus", { query: "a", sources: { items: Array(ROWS).fill(1) } }),
    );
    const dense = await timed(() => call("search_corpus", { query: "a", sources: Array(ROWS).fill(1) }));
    expect(floor.body.error).toBe("invalid_argument");
    expect(floor.body.detail).toMatchObject({ field: "sources" });
    expect(dense.body.error).toBe("invalid_argument");
    expect(dense.body.detail).toMatchObject({ field: "sources.0" });
    expect(dense.ms, `floor ${floor.ms.toFixed(0)} ms`).toBeLessThan(AT_MOST_FLOORS * floor.ms + SLACK_MS);
  });
});
