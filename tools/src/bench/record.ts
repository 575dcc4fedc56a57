/**
 * The end of a bench run: a figure that cannot be true is reported as a miss with the reason (never
 * as a result that passed, never by failing the whole run), and the committed results
 * (tools/bench/results/*.json, which the docs quote) are written only with an explicit `--record`,
 * so a trial `pnpm bench --short` leaves the tree clean.
 */
import { relative } from "node:path";
import { type RecordedRun, type Row, recordedRunPath, writeJson } from "./report.js";

/**
 * Rows whose value is a signed difference by design: what the fast path saves is negative when it
 * costs. Every other figure (a time, an overhead, a count, a size, a rate) cannot be below zero.
 */
const SIGNED = [/fast path saves/];

/** Why a row's value cannot be true, or null when it can. */
export function impossibility(r: Row): string | null {
  if (!Number.isFinite(r.value)) return null; // not measured here (NaN: no /proc); shown as "—"
  if (r.value >= 0 || SIGNED.some((p) => p.test(r.figure))) return null;
  const what = /overhead|part of a call/.test(r.figure)
    ? `an overhead cannot be negative (the server's path makes the floor's request and does more): the floor (${r.floor ?? "?"} ${r.unit}) came out slower, so noise or a bias in the measurement (garbage one path leaves for the other to collect, say) outweighed the difference; run again on a quieter machine (see the load average), or without --short for more samples`
    : "this figure cannot be negative: the measurement is wrong";
  return `${r.figure} is ${r.value} ${r.unit}; ${what}`;
}

/** Every impossible figure in the run, as its reason. */
export function impossibleFigures(rows: readonly Row[]): string[] {
  return rows.flatMap((r) => impossibility(r) ?? []);
}

/**
 * The rows with each impossible figure marked as a miss (pass false, the goal saying why), so the
 * run still prints, records and names it, instead of failing whole with nothing kept (a run on a
 * loaded machine lost every other figure to one noisy in-process median).
 */
export function markImpossible(rows: readonly Row[]): Row[] {
  return rows.map((r) =>
    impossibility(r) === null ? r : { ...r, goal: `${r.goal}; ≥ 0 (negative: noise)`, pass: false },
  );
}

/** `--record`: write the committed results; without it a run writes only bench-results/ (ignored). */
export const recordFlag = (argv: readonly string[]): boolean => argv.includes("--record");

export interface Misses {
  /** Figures that missed a goal the issues set. */
  goals: string[];
  /** Figures reported for information (no goal) that came out impossible: noise, said as such. */
  informational: string[];
}

/** The run's misses: goal misses apart from informational figures that came out impossible. */
export function missesOf(rows: readonly Row[]): Misses {
  const missed = rows.filter((r) => r.pass === false);
  const informational = (r: Row) => r.goal.startsWith("info");
  return {
    goals: missed.filter((r) => !informational(r)).map((r) => r.figure),
    informational: missed.filter(informational).map((r) => r.figure),
  };
}

/** The summary lines under the table: every miss by name, the informational ones apart. */
export function missLines(misses: Misses, strict: boolean): string[] {
  const lines: string[] = [];
  if (misses.goals.length > 0)
    lines.push(
      `${misses.goals.length} figure(s) missed their goal${strict ? "" : " (exit 0 without --strict)"}:`,
      ...misses.goals.map((f) => `  - ${f}`),
    );
  if (misses.informational.length > 0)
    lines.push(
      `${misses.informational.length} informational figure(s) came out impossible (negative: noise on this machine, no goal):`,
      ...misses.informational.map((f) => `  - ${f}`),
    );
  return lines;
}

/**
 * Writes the committed results when asked, impossible figures marked as misses (markImpossible);
 * says what it did and why each impossible figure cannot be true. Returns the rows as written.
 */
export function finishRecording(
  repoRoot: string,
  run: RecordedRun,
  record: boolean,
  say: (line: string) => void,
): Row[] {
  for (const reason of impossibleFigures(run.rows)) say(`impossible figure: ${reason}`);
  const rows = markImpossible(run.rows);
  const path = recordedRunPath(repoRoot, run.short);
  const shown = relative(repoRoot, path);
  if (record) {
    writeJson(path, { ...run, rows });
    say(`recorded: ${shown} (committed: the docs quote it; \`pnpm figures --write\` updates them)`);
  } else {
    say(`not recorded: ${shown} is left as it was (\`--record\` writes it)`);
  }
  return rows;
}
