/**
 * `pnpm reliability`: the reliability test files (test/reliability/*.test.ts) at full scale, one
 * file after another, against the built server and the testkit; then the table of cases tried,
 * passed, failed and skipped per group, built from vitest's JSON report. Exits non-zero on any failure.
 *   --scale=<n>   multiply case counts (default 1; `pnpm test` runs the same files at 0.03)
 *   --seed=<n>    fast-check seed (default 20260601)
 *   --only=a,b    run only these groups (file names: bad-input, protocol, faults, hostile, ...)
 *   --bundle      run the bundled bin the package publishes (dist/resmon-mcp.cjs) instead of dist/bin/cli.js
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { startVitest } from "vitest/node";
import { SERVER_BUNDLE, SERVER_CLI } from "./proc.js";
import { formatTable, type JsonReport, rowsFrom } from "./report.js";
import { writeRecordedRun } from "./results.js";
import { DEFAULT_SEED } from "./scale.js";
import { GROUP_ORDER, type GroupName } from "./titles.js";

const TOOLS = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const REPO_ROOT = join(TOOLS, "..");

function commitOf(repo: string): string {
  const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, encoding: "utf8" }).trim();
  try {
    return `${git("rev-parse", "--short", "HEAD")}${git("status", "--porcelain") ? "+changes" : ""}`;
  } catch {
    return "unknown";
  }
}

const loadNow = () =>
  loadavg()
    .map((n) => n.toFixed(1))
    .join(" ");

function flag(name: string): string | undefined {
  const hit = process.argv.find((a) => a.startsWith(`--${name}=`));
  return hit?.slice(name.length + 3);
}

async function main(): Promise<number> {
  const bundle = process.argv.includes("--bundle");
  const file = bundle ? SERVER_BUNDLE : SERVER_CLI;
  if (!existsSync(file)) {
    process.stderr.write(`reliability: ${file} is missing; run pnpm build first.\n`);
    return 2;
  }
  const scale = Number(flag("scale") ?? "1");
  const seed = Number(flag("seed") ?? String(DEFAULT_SEED));
  const only = (flag("only")?.split(",") ?? GROUP_ORDER) as GroupName[];
  const unknown = only.filter((g) => !GROUP_ORDER.includes(g));
  if (unknown.length > 0 || !Number.isFinite(scale) || scale <= 0 || !Number.isInteger(seed)) {
    process.stderr.write(
      `reliability: bad flags (unknown groups: ${unknown.join(", ") || "none"}); groups are ${GROUP_ORDER.join(", ")}\n`,
    );
    return 2;
  }
  const out = mkdtempSync(join(tmpdir(), "resmon-reliability-"));
  const reportFile = join(out, "report.json");
  const commit = commitOf(REPO_ROOT);
  const started = Date.now();
  const date = new Date(started).toISOString();
  const loadAtStart = loadNow();
  process.env.RESMON_RELIABILITY_SCALE = String(scale);
  process.env.RESMON_RELIABILITY_SEED = String(seed);
  if (bundle) process.env.RESMON_RELIABILITY_BIN = "bundle";
  const vitest = await startVitest(
    "test",
    GROUP_ORDER.filter((g) => only.includes(g)).map((g) => `test/reliability/${g}.test.ts`),
    {
      root: TOOLS,
      run: true,
      watch: false,
      // One group at a time, as the load and timing bounds assume; the shared machine has 2 cores.
      fileParallelism: false,
      reporters: ["default", ["json", { outputFile: reportFile }]],
    },
  );
  await vitest.close();
  const vitestFailed = (process.exitCode ?? 0) !== 0;
  process.exitCode = 0;
  if (!existsSync(reportFile)) {
    process.stderr.write("reliability: vitest wrote no report\n");
    return 1;
  }
  const rows = rowsFrom(JSON.parse(readFileSync(reportFile, "utf8")) as JsonReport);
  rmSync(out, { recursive: true, force: true });
  const failed = rows.reduce((n, r) => n + r.failed, 0);
  const lines = [`\n${formatTable(rows)}\n`];
  for (const r of rows) for (const n of r.notes) lines.push(`- ${r.group}: ${n}`);
  for (const r of rows) for (const f of r.failures) lines.push(`FAIL ${r.group}: ${f}`);
  const seconds = Math.round((Date.now() - started) / 1000);
  lines.push(
    `\n${relative(process.cwd(), file)}: scale ${scale}, seed ${seed}, ${seconds} s, Node ${process.version}; ${failed === 0 && !vitestFailed ? "all passed" : `${failed} failed${vitestFailed ? " (vitest reported a failure)" : ""}`}`,
  );
  // Only a full run is the record the README quotes; a partial or scaled one would misstate it.
  if (scale === 1 && GROUP_ORDER.every((g) => only.includes(g))) {
    const cpu = cpus()[0]?.model.trim() ?? "unknown CPU";
    const machine = `${cpus().length} × ${cpu}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${process.platform}; load average at start ${loadAtStart}, at end ${loadNow()}`;
    const bin = relative(REPO_ROOT, file);
    const path = writeRecordedRun(REPO_ROOT, { date, commit, machine, bin, scale, seed, seconds, rows });
    lines.push(
      `recorded in ${relative(process.cwd(), path)} (\`pnpm figures --write\` puts it in the README)\n`,
    );
  } else lines.push("not recorded: only a run of every group at scale 1 is (tools/reliability/results/)\n");
  process.stdout.write(`${lines.join("\n")}\n`);
  return failed === 0 && !vitestFailed ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(
      `reliability: the run itself failed: ${err instanceof Error ? err.message : String(err)}\n`,
    );
    process.exit(1);
  },
);
