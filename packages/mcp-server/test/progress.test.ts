/**
 * The progress reporter (src/progress.ts) on fake time: one increasing scale across stages, at most
 * PROGRESS_MAX_PER_SECOND a second, a report inside the interval held and replaced by a newer one,
 * nothing after the call ends.
 */
import { PROGRESS_MAX_PER_SECOND } from "@resmon/mcp-contract";
import { describe, expect, it } from "vitest";
import {
  ANSWER_GAP_MS,
  PROGRESS_INTERVAL_MS,
  type ProgressNote,
  progressReporter,
  type ReporterTimers,
} from "../src/progress.js";

function fakeTime() {
  let now = 1_000_000;
  const timers: { at: number; fn: () => void; id: number }[] = [];
  let next = 0;
  const t: ReporterTimers = {
    now: () => now,
    setTimeout: (fn, ms) => {
      const id = next++;
      timers.push({ at: now + ms, fn, id });
      return id;
    },
    clearTimeout: (h) => {
      const i = timers.findIndex((x) => x.id === h);
      if (i >= 0) timers.splice(i, 1);
    },
  };
  const advance = (ms: number) => {
    const end = now + ms;
    for (;;) {
      timers.sort((a, b) => a.at - b.at);
      const first = timers[0];
      if (!first || first.at > end) break;
      timers.shift();
      now = first.at;
      first.fn();
    }
    now = end;
  };
  return { t, advance, pending: () => timers.length, now: () => now };
}

describe("progressReporter", () => {
  it("sends the first report at once, then at most one per interval, the newest of those held", () => {
    const clock = fakeTime();
    const sent: (ProgressNote & { at: number })[] = [];
    const r = progressReporter((n) => sent.push({ ...n, at: clock.now() }), clock.t);
    // 100 reports, 10 ms apart: a busy retrieval.
    for (let i = 0; i < 100; i++) {
      r.report({ stage: "retrieve", done: i, total: 100, message: `${i} of 100` });
      clock.advance(10);
    }
    clock.advance(1000);
    r.end();
    expect(sent[0]).toMatchObject({ progress: 0, total: 100, message: "0 of 100" });
    // 1,000 ms of reports: 1 at once and then one per interval.
    expect(sent.length).toBeLessThanOrEqual(1 + Math.ceil(1000 / PROGRESS_INTERVAL_MS) + 1);
    expect(sent.length).toBeGreaterThanOrEqual(4);
    for (let i = 1; i < sent.length; i++) {
      const [a, b] = [sent[i - 1], sent[i]] as [(typeof sent)[0], (typeof sent)[0]];
      expect(b.at - a.at).toBeGreaterThanOrEqual(PROGRESS_INTERVAL_MS);
      expect(b.progress).toBeGreaterThan(a.progress);
    }
    // In any one second, no more than the contract allows.
    for (const s of sent)
      expect(sent.filter((x) => x.at >= s.at && x.at < s.at + 1000).length).toBeLessThanOrEqual(
        PROGRESS_MAX_PER_SECOND,
      );
    // The last report held was sent once its interval came: 99 of 100.
    expect(sent.at(-1)?.message).toBe("99 of 100");
  });

  it("never sends a report that does not move forward, and a new stage counts on from the last one's total", () => {
    const clock = fakeTime();
    const sent: ProgressNote[] = [];
    const r = progressReporter((n) => sent.push(n), clock.t);
    r.report({ stage: "retrieve", done: 0, total: 7, message: "a" });
    clock.advance(300);
    r.report({ stage: "retrieve", done: 0, total: 7, message: "a, reworded" });
    clock.advance(300);
    r.report({ stage: "retrieve", done: 7, total: 7, message: "pooled" });
    clock.advance(300);
    r.report({ stage: "verify", done: 0, total: 3, message: "verify 0" });
    clock.advance(300);
    r.report({ stage: "verify", done: 1, total: 3, message: "verify 1" });
    clock.advance(300);
    expect(sent).toEqual([
      { progress: 0, total: 7, message: "a" },
      { progress: 7, total: 7, message: "pooled" },
      { progress: 8, total: 10, message: "verify 1" },
    ]);
  });

  it("sends the report it holds before the answer, when its interval comes; nothing after the answer", async () => {
    const clock = fakeTime();
    const sent: (ProgressNote & { at: number })[] = [];
    const r = progressReporter((n) => sent.push({ ...n, at: clock.now() }), clock.t);
    // A fast verification: every paper done inside the first interval.
    r.report({ stage: "verify", done: 0, total: 3, message: "0 of 3" });
    r.report({ stage: "verify", done: 1, total: 3, message: "1 of 3" });
    r.report({ stage: "verify", done: 3, total: 3, message: "3 of 3" });
    expect(clock.pending()).toBe(1);
    let answered = false;
    const ending = r.end().then(() => {
      answered = true;
    });
    await Promise.resolve();
    clock.advance(PROGRESS_INTERVAL_MS - 1);
    await Promise.resolve();
    expect(sent.map((s) => s.message)).toEqual(["0 of 3"]);
    clock.advance(1);
    await Promise.resolve();
    // The held report went once its interval came; then the gap before the answer.
    expect(sent.map((s) => s.message)).toEqual(["0 of 3", "3 of 3"]);
    expect((sent[1]?.at ?? 0) - (sent[0]?.at ?? 0)).toBe(PROGRESS_INTERVAL_MS);
    for (let i = 0; i < 5; i++) await Promise.resolve();
    expect(answered).toBe(false);
    clock.advance(ANSWER_GAP_MS);
    await ending;
    expect(answered).toBe(true);
    clock.advance(5000);
    r.report({ stage: "verify", done: 4, total: 4, message: "late" });
    clock.advance(5000);
    expect(sent.map((s) => s.message)).toEqual(["0 of 3", "3 of 3"]);
  });

  it("a cancelled call drops the report it holds; the answer waits a moment after the last one", async () => {
    const clock = fakeTime();
    const sent: ProgressNote[] = [];
    const r = progressReporter((n) => sent.push(n), clock.t);
    r.report({ stage: "export", done: 0, total: 2, message: "reading" });
    r.report({ stage: "export", done: 1, total: 2, message: "exporting" });
    expect(clock.pending()).toBe(1);
    let answered = false;
    const ending = r.end(true).then(() => {
      answered = true;
    });
    // The held report is dropped; what is left is the gap before the answer.
    await Promise.resolve();
    expect(clock.pending()).toBe(1);
    clock.advance(ANSWER_GAP_MS - 1);
    await Promise.resolve();
    expect(answered).toBe(false);
    clock.advance(1);
    await ending;
    expect(answered).toBe(true);
    clock.advance(5000);
    r.report({ stage: "export", done: 2, total: 2, message: "late" });
    clock.advance(5000);
    expect(sent.map((s) => s.message)).toEqual(["reading"]);
  });
});
