/**
 * The committed record of the last full `pnpm reliability` run (scale 1, every group):
 * tools/reliability/results/full.json. The root README's Reliability table and figures are
 * rendered from it by `pnpm figures --write`, never typed by hand.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { GroupRow } from "./report.js";

export interface RecordedReliabilityRun {
  date: string;
  /** The commit the run was made on (with "+changes" when the work tree differed from it). */
  commit: string;
  machine: string;
  /** The bin the server ran as, relative to the repository. */
  bin: string;
  scale: number;
  seed: number;
  /** Wall time of the vitest run, in seconds (the build before it not included). */
  seconds: number;
  rows: GroupRow[];
}

export function recordedReliabilityPath(repoRoot: string): string {
  return join(repoRoot, "tools", "reliability", "results", "full.json");
}

export function writeRecordedRun(repoRoot: string, run: RecordedReliabilityRun): string {
  const path = recordedReliabilityPath(repoRoot);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(run, null, 2)}\n`);
  return path;
}
