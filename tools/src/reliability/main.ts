/**
 * `pnpm reliability`: bad input, broken protocol, backend faults, never the wrong corpus, load and
 * secrets, against the built server (`packages/mcp-server/dist/cli.js`) and the testkit. Prints a
 * table of cases tried, passed and failed per group and exits non-zero on any failure.
 *   --scale=<n>   multiply case counts (default 1; the fast subset in `pnpm test` uses ~0.05)
 *   --seed=<n>    fast-check seed (default 20260601)
 *   --only=a,b    run only these groups (bad-input, protocol, faults, wrong-corpus, load, secrets)
 *   --bundle      run the bundled bin the package publishes (dist/resmon-mcp.js) instead of dist/cli.js
 */
import { existsSync } from "node:fs";
import { relative } from "node:path";
import { currentServerFile, SERVER_BUNDLE, SERVER_CLI, useServerFile } from "./proc.js";
import { GROUP_ORDER, type GroupName, runSuite } from "./suite.js";
import { formatTable } from "./tally.js";

function flag(name: string): string | undefined {
  const hit = process.argv.find((a) => a.startsWith(`--${name}=`));
  return hit?.slice(name.length + 3);
}

async function main(): Promise<number> {
  const file = process.argv.includes("--bundle") ? SERVER_BUNDLE : SERVER_CLI;
  if (!existsSync(file)) {
    process.stderr.write(`reliability: ${file} is missing; run pnpm build first.\n`);
    return 2;
  }
  useServerFile(file);
  const scale = Number(flag("scale") ?? "1");
  const seed = Number(flag("seed") ?? "20260601");
  const only = (flag("only")?.split(",") ?? GROUP_ORDER) as GroupName[];
  const unknown = only.filter((g) => !GROUP_ORDER.includes(g));
  if (unknown.length > 0 || !Number.isFinite(scale) || scale <= 0 || !Number.isInteger(seed)) {
    process.stderr.write(
      `reliability: bad flags (unknown groups: ${unknown.join(", ") || "none"}); groups are ${GROUP_ORDER.join(", ")}\n`,
    );
    return 2;
  }
  const started = Date.now();
  const tally = await runSuite({ scale, seed, log: (line) => process.stdout.write(`${line}\n`) }, only);
  process.stdout.write(`\n${formatTable(tally.all())}\n\n`);
  for (const g of tally.all()) {
    for (const n of g.notes) process.stdout.write(`- ${g.group}: ${n}\n`);
  }
  for (const g of tally.all()) {
    for (const f of g.failures) process.stdout.write(`FAIL ${g.group}: ${f}\n`);
  }
  process.stdout.write(
    `\n${relative(process.cwd(), currentServerFile())}: scale ${scale}, seed ${seed}, ${((Date.now() - started) / 1000).toFixed(0)} s, Node ${process.version}; ${tally.failed === 0 ? "all passed" : `${tally.failed} failed`}\n`,
  );
  return tally.failed === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(
      `reliability: the suite itself failed: ${err instanceof Error ? err.message : String(err)}\n`,
    );
    process.exit(1);
  },
);
