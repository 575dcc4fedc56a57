/**
 * `pnpm bench:scan-quality [--profiles quick,standard] [--record [--as before|after]]`: the
 * scan-quality section of `pnpm bench` alone (scan-quality.ts). Prints the table; `--record` writes
 * tools/bench/results/scan-quality.json (the README's table is rendered from it by `pnpm figures`),
 * and with `--as NAME` also scan-quality.NAME.json, the same run kept for a before/after pair.
 */
import { execFileSync } from "node:child_process";
import { cpus, loadavg, totalmem } from "node:os";
import { join } from "node:path";
import { formatWithBiome } from "../biome-format.js";
import { renderTable, writeJson } from "./report.js";
import {
  measureScanQuality,
  type ProfileName,
  profileTotals,
  qualityTable,
  scanQualityRows,
  synergyAvailable,
  tokenCosts,
} from "./scan-quality.js";

const argv = process.argv.slice(2);
const flagValue = (flag: string) => {
  const i = argv.indexOf(flag);
  return i >= 0 ? argv[i + 1] : undefined;
};
const profiles = (flagValue("--profiles") ?? "quick,standard").split(",") as ProfileName[];
const record = argv.includes("--record");
const as = flagValue("--as");
const REPO_ROOT = join(import.meta.dirname, "..", "..", "..");
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");

if (!synergyAvailable()) {
  process.stderr.write(
    "scan quality: ../shared/datasets/synergy/records.jsonl.gz is not here; nothing measured\n",
  );
  process.exit(1);
}
const loadAtStart = load();
const report = await measureScanQuality(profiles, (line) => process.stderr.write(`${line}\n`));
const machine = `${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}; load average at start ${loadAtStart}, at end ${load()} (a shared machine: wall times move with it)`;
const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: REPO_ROOT }).toString().trim();
const rows = scanQualityRows(report, loadAtStart);
const run = { date: new Date().toISOString(), commit, machine, profiles, ...report, rows };
process.stdout.write(`\n${qualityTable(report.runs)}\n\n${renderTable(rows)}\n`);
for (const profile of profiles) {
  const t = profileTotals(report.runs.filter((r) => r.profile === profile));
  process.stdout.write(`${profile}: ${JSON.stringify(t)}\n`);
  // The costs packages/scan/src/profile.ts's screening budget is worked out from.
  process.stdout.write(
    `${profile}, tokens by part: ${JSON.stringify(tokenCosts(report.runs.filter((r) => r.profile === profile)))}\n`,
  );
}
if (record) {
  // The latest run (the README's table), and with --as a named copy of the same run (a before/after pair).
  const names = ["scan-quality.json", ...(as ? [`scan-quality.${as}.json`] : [])];
  const paths = names.map((name) => join(REPO_ROOT, "tools", "bench", "results", name));
  for (const path of paths)
    writeJson(path, { ...run, records: "../shared/datasets/synergy/records.jsonl.gz" });
  await formatWithBiome(paths);
  process.stderr.write(`recorded: ${names.map((n) => `tools/bench/results/${n}`).join(", ")}\n`);
}
