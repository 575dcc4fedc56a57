/**
 * The end of a bench run (src/bench/record.ts): the committed results are written only with
 * `--record`, and a figure that cannot be true is reported as a miss (never as a pass, never by
 * failing the whole run), the informational ones said apart; and the
 * paired overhead (src/bench/stats.ts) that made one such figure, a negative p99, in recorded runs.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  finishRecording,
  impossibility,
  impossibleFigures,
  missesOf,
  missLines,
  recordFlag,
} from "../src/bench/record.js";
import { type RecordedRun, recordedRunPath, row } from "../src/bench/report.js";
import { p99, pairedOverhead } from "../src/bench/stats.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const run = (rows: RecordedRun["rows"]): RecordedRun => ({
  date: "2026-12-02T00:00:00Z",
  machine: "m",
  short: true,
  rows,
});
const good = [
  row("per-call overhead, health (small answer), 1000 calls, median", "ms", 0.4, 0.9, "< 0.5 ms", true),
];
const negativeP99 = row(
  "per-call overhead, search_corpus limit 100 (large answer), p99",
  "ms",
  -0.46,
  4.1,
  "< 2 ms",
  true,
);

function repo(): string {
  const dir = mkdtempSync(join(tmpdir(), "resmon-bench-record-"));
  dirs.push(dir);
  return dir;
}

describe("--record", () => {
  it("is off unless given", () => {
    expect(recordFlag(["--short"])).toBe(false);
    expect(recordFlag(["--short", "--record"])).toBe(true);
    expect(recordFlag(["--recorded"])).toBe(false);
  });

  it("without it, the committed results are left as they were", () => {
    const root = repo();
    const path = recordedRunPath(root, true);
    mkdirSync(join(root, "tools", "bench", "results"), { recursive: true });
    writeFileSync(path, "committed\n");
    const said: string[] = [];
    expect(finishRecording(root, run(good), false, (l) => said.push(l))).toEqual(good);
    expect(readFileSync(path, "utf8")).toBe("committed\n");
    expect(said.join("\n")).toContain("not recorded: tools/bench/results/short.json is left as it was");
  });

  it("with it, the run is written where the docs read it", () => {
    const root = repo();
    expect(finishRecording(root, run(good), true, () => undefined)).toEqual(good);
    const written = JSON.parse(readFileSync(recordedRunPath(root, true), "utf8")) as RecordedRun;
    expect(written.rows).toEqual(good);
  });
});

describe("a figure that cannot be true", () => {
  it("a negative overhead is named with why it cannot be", () => {
    expect(impossibility(negativeP99)).toMatch(
      /^per-call overhead, .*, p99 is -0\.46 ms; an overhead cannot be negative/,
    );
    expect(impossibleFigures([...good, negativeP99])).toHaveLength(1);
  });

  it("a signed difference may be negative; an unmeasured one (NaN) is shown as missing, not refused", () => {
    const saves = row(
      "what the tools/call fast path saves over stdio, health",
      "ms",
      -0.02,
      0.5,
      "info",
      null,
    );
    expect(impossibility(saves)).toBeNull();
    expect(impossibility(row("RSS after start", "MiB", Number.NaN, 40, "info", null))).toBeNull();
    expect(impossibility(row("tools/call answers", "", -1, null, "info", null))).toMatch(
      /cannot be negative/,
    );
  });

  it("is recorded as a miss with its reason, the rest of the run kept", () => {
    const root = repo();
    const said: string[] = [];
    const rows = finishRecording(root, run([...good, negativeP99]), true, (l) => said.push(l));
    expect(rows[0]).toEqual(good[0]);
    expect(rows[1]).toMatchObject({ value: -0.46, pass: false, goal: "< 2 ms; ≥ 0 (negative: noise)" });
    const written = JSON.parse(readFileSync(recordedRunPath(root, true), "utf8")) as RecordedRun;
    expect(written.rows).toEqual(rows);
    expect(said.join("\n")).toMatch(/impossible figure: per-call overhead, .*p99 is -0\.46 ms/);
  });

  it("the summary names every miss, the informational ones apart", () => {
    const info = row("in-process overhead (no stdio), search_corpus, median", "ms", -4.8, 25, "info", null);
    const missedGoal = row("cold start, built server (median)", "ms", 80, 50, "ratio ≤ 1.3", false);
    const rows = finishRecording(repo(), run([...good, info, missedGoal]), false, () => undefined);
    const misses = missesOf(rows);
    expect(misses).toEqual({ goals: [missedGoal.figure], informational: [info.figure] });
    const lines = missLines(misses, false).join("\n");
    expect(lines).toContain("1 figure(s) missed their goal (exit 0 without --strict):\n  - cold start");
    expect(lines).toContain("1 informational figure(s) came out impossible");
    expect(missLines(missesOf(good), true)).toEqual([]);
  });
});

describe("the paired overhead", () => {
  it("is each call's own difference, so a floor's tail elsewhere cannot make it negative", () => {
    // The server pays 0.5 ms on every call; the direct request's slow tail falls on other calls
    // than the server's (as on a loaded machine).
    const direct = Array.from({ length: 100 }, (_, i) => (i < 5 ? 9 : 1));
    const tool = direct.map((d, i) => (i < 5 ? 1.5 : i >= 95 ? 4 : d + 0.5));
    expect(p99(tool) - p99(direct)).toBeLessThan(0); // what the bench printed before
    const { median, p99: tail } = pairedOverhead(tool, direct);
    expect(median).toBe(0.5);
    expect(tail).toBe(3);
    expect(() => pairedOverhead([1], [])).toThrow(/unpaired/);
  });
});
