/**
 * `pnpm reliability`: the reliability test files (test/reliability/*.test.ts) at full scale, one
 * file after another, against the built server and the testkit; then the table of cases tried,
 * passed, failed and skipped per group, built from vitest's JSON report. Exits non-zero on any failure.
 *   --scale=<n>   multiply case counts (default 1; `pnpm test` runs the same files at 0.03)
 *   --seed=<n>    fast-check seed (default 20260601)
 *   --only=a,b    run only these groups (file names: bad-input, protocol, faults, hostile, ...)
 *   --bundle      run the bundled bin the package publishes (dist/resmon-mcp.js) instead of dist/cli.js
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { SERVER_BUNDLE, SERVER_CLI } from "./proc.js";
import { formatTable, type JsonReport, rowsFrom } from "./report.js";
import { DEFAULT_SEED } from "./scale.js";
import { GROUP_ORDER, type GroupName } from "./titles.js";

const TOOLS = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const VITEST = join(dirname(createRequire(import.meta.url).resolve("vitest/package.json")), "vitest.mjs");

function flag(name: string): string | undefined {
  const hit = process.argv.find((a) => a.startsWith(`--${name}=`));
  return hit?.slice(name.length + 3);
}

function main(): number {
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
  const started = Date.now();
  const run = spawnSync(
    process.execPath,
    [
      VITEST,
      "run",
      ...GROUP_ORDER.filter((g) => only.includes(g)).map((g) => `test/reliability/${g}.test.ts`),
      // One group at a time, as the load and timing bounds assume; the shared machine has 2 cores.
      "--no-file-parallelism",
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=${reportFile}`,
    ],
    {
      cwd: TOOLS,
      stdio: "inherit",
      env: {
        ...process.env,
        RESMON_RELIABILITY_SCALE: String(scale),
        RESMON_RELIABILITY_SEED: String(seed),
        ...(bundle ? { RESMON_RELIABILITY_BIN: "bundle" } : {}),
      },
    },
  );
  if (!existsSync(reportFile)) {
    process.stderr.write(
      `reliability: vitest wrote no report (exit ${run.status}, ${run.error?.message ?? "no error"})\n`,
    );
    return 1;
  }
  const rows = rowsFrom(JSON.parse(readFileSync(reportFile, "utf8")) as JsonReport);
  rmSync(out, { recursive: true, force: true });
  const failed = rows.reduce((n, r) => n + r.failed, 0);
  const lines = [`\n${formatTable(rows)}\n`];
  for (const r of rows) for (const n of r.notes) lines.push(`- ${r.group}: ${n}`);
  for (const r of rows) for (const f of r.failures) lines.push(`FAIL ${r.group}: ${f}`);
  lines.push(
    `\n${relative(process.cwd(), file)}: scale ${scale}, seed ${seed}, ${((Date.now() - started) / 1000).toFixed(0)} s, Node ${process.version}; ${failed === 0 && run.status === 0 ? "all passed" : `${failed} failed (vitest exit ${run.status})`}\n`,
  );
  process.stdout.write(`${lines.join("\n")}\n`);
  return failed === 0 && run.status === 0 ? 0 : 1;
}

process.exit(main());
