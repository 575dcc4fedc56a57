/**
 * The end of a bench run: figures that cannot be true fail it (with the reason, never printed as a
 * result), and the committed results (tools/bench/results/*.json, which the docs quote) are written
 * only with an explicit `--record`, so a trial `pnpm bench --short` leaves the tree clean.
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

/** `--record`: write the committed results; without it a run writes only bench-results/ (ignored). */
export const recordFlag = (argv: readonly string[]): boolean => argv.includes("--record");

/**
 * Writes the committed results when asked and the run holds no impossible figure; says what it did.
 * Returns the reasons the run fails (empty when it does not).
 */
export function finishRecording(
  repoRoot: string,
  run: RecordedRun,
  record: boolean,
  say: (line: string) => void,
): string[] {
  const impossible = impossibleFigures(run.rows);
  const path = recordedRunPath(repoRoot, run.short);
  const shown = relative(repoRoot, path);
  if (impossible.length > 0) {
    for (const reason of impossible) say(`impossible figure: ${reason}`);
    say(`${impossible.length} figure(s) cannot be true: the run fails, and ${shown} is left as it was`);
    return impossible;
  }
  if (record) {
    writeJson(path, run);
    say(`recorded: ${shown} (committed: the docs quote it; \`pnpm figures --write\` updates them)`);
  } else {
    say(`not recorded: ${shown} is left as it was (\`--record\` writes it)`);
  }
  return [];
}
