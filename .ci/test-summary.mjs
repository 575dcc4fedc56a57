// The closing count of a test run, summed from the JSON reports each package's vitest run writes
// (<package>/.test-results/vitest.json): why anything was skipped, how many cases could not even be
// generated (their data is in ../shared, and it is absent), then one line,
// "tests: N passed, N failed, N skipped", which CI reads.
//
// ../shared (the spec, resmon's OpenAPI and captured answers) sits beside the checkout, not in it.
// Many tests generate their cases from it, so without it those cases do not exist, and no skip says
// so. A full run with it present records each such file's case count in .ci/shared-cases.json, this
// machine's record (ignored by git: a test run rewrites it, so it is never committed by hand); a run
// without it states, from that record, how many were not generated, or, with no record (a fresh clone,
// CI), which files generate cases from it.
// With CI=true a missing ../shared fails the run in one line, unless the CI declares it cannot
// provide it (RESMON_TESTS_WITHOUT_SHARED=1, with its reason in the workflow file).
//
//   node .ci/test-summary.mjs                 summarise the reports already written
//   node .ci/test-summary.mjs --run CMD ...   remove old reports, run CMD (what `pnpm test` does), then
//                                             summarise; exits non-zero if CMD or any test failed
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

// TEST_SUMMARY_ROOT points it at another tree (its own test does, with fixture reports).
const ROOT = resolve(process.env.TEST_SUMMARY_ROOT ?? join(dirname(fileURLToPath(import.meta.url)), ".."));
const SHARED = resolve(ROOT, "..", "shared");
const SKIPPED = new Set(["pending", "skipped", "todo", "disabled"]);
const RECORD = join(ROOT, ".ci", "shared-cases.json");
const HAS_SHARED = existsSync(SHARED);

/** CI must have ../shared, or say outright that it runs without it. */
function sharedRefusal() {
  if (HAS_SHARED || process.env.CI !== "true" || process.env.RESMON_TESTS_WITHOUT_SHARED === "1")
    return undefined;
  const total = recordedTotal();
  const lost = total > 0 ? `about ${total} test cases` : "the test cases generated from it";
  return `../shared is not at ${SHARED}, and CI=true: without it ${lost} are never generated; provide it, or set RESMON_TESTS_WITHOUT_SHARED=1 and say in the workflow why it cannot be.`;
}

function readRecord() {
  return existsSync(RECORD) ? JSON.parse(readFileSync(RECORD, "utf8")) : {};
}

function recordedTotal() {
  return Object.values(readRecord()).reduce((n, c) => n + c, 0);
}

/**
 * With ../shared present and every report written: record the case count of each file that reads it.
 * Without it: the cases the record has and this run lacks, by file.
 */
function sharedCases(countsByFile, reported, complete, said) {
  const reading = Object.fromEntries(
    [...countsByFile]
      .filter(([file]) => readsShared(join(ROOT, file)))
      .sort(([a], [b]) => a.localeCompare(b)),
  );
  const recorded = readRecord();
  if (HAS_SHARED) {
    if (complete && JSON.stringify(reading) !== JSON.stringify(recorded)) {
      mkdirSync(dirname(RECORD), { recursive: true });
      writeFileSync(RECORD, `${JSON.stringify(reading, null, 2)}\n`);
      const total = Object.values(reading).reduce((n, c) => n + c, 0);
      return [
        `recorded ${total} cases in ${Object.keys(reading).length} files that read ../shared: ${relative(ROOT, RECORD)} (this machine's record, not committed)`,
      ];
    }
    return [];
  }
  if (Object.keys(recorded).length === 0) {
    // Files whose skips were already put down to ../shared are not named twice.
    const files = Object.keys(reading).filter((f) => !said.has(f));
    if (files.length === 0) return [];
    return [
      `../shared is not at ${SHARED} (the spec, resmon's OpenAPI and captured answers): ${files.length} test files generate cases from it, and those cases were not generated (no run with it on this machine recorded how many): ${files.join(", ")}`,
    ];
  }
  const lacking = [];
  for (const [file, was] of Object.entries(recorded)) {
    // A file gone from the tree, or in a package whose report is missing (said elsewhere), is not counted.
    if (!existsSync(join(ROOT, file)) || !reported.some((dir) => file.startsWith(`${dir}/`))) continue;
    const now = countsByFile.get(file) ?? 0;
    if (now < was) lacking.push({ file, was, now });
  }
  if (lacking.length === 0) return [];
  const total = lacking.reduce((n, l) => n + l.was - l.now, 0);
  const where = lacking.map((l) => `${l.file} ${l.was} → ${l.now}`).join(", ");
  return [
    `${total} cases could not be generated: ../shared is not at ${SHARED} (the spec, resmon's OpenAPI and captured answers), and these files generate them from it (cases in the last run with it → now): ${where}`,
  ];
}

/** Every workspace folder with a vitest config: each is expected to leave a report. */
function testRoots() {
  const packages = readdirSync(join(ROOT, "packages")).map((p) => join("packages", p));
  return ["tools", ...packages].filter((dir) => existsSync(join(ROOT, dir, "vitest.config.ts")));
}

const reportOf = (dir) => join(ROOT, dir, ".test-results", "vitest.json");

/** Every JSON report a folder holds: `pnpm test`'s vitest.json, and any a separate step wrote (the doc replay's). */
function reportsOf(dir) {
  const results = join(ROOT, dir, ".test-results");
  if (!existsSync(results)) return [];
  return readdirSync(results)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => join(results, f));
}

/** Does a test file read ../shared, itself or through a helper it imports from the test folder? */
function readsShared(file, seen = new Set()) {
  if (seen.has(file) || !existsSync(file)) return false;
  seen.add(file);
  const text = readFileSync(file, "utf8");
  if (/\.\.\/shared\b|["'`/]shared\/(resmon|spec|scan)\b/.test(text)) return true;
  for (const [, spec] of text.matchAll(/from\s+["'](\.{1,2}\/[^"']+)["']/g)) {
    const target = resolve(dirname(file), spec.replace(/\.js$/, ".ts"));
    if (readsShared(target, seen)) return true;
  }
  return false;
}

/** The doc comment right above `const NAME =` in a test file, on one line, if it has one. */
function commentOn(text, name) {
  const m = new RegExp(`/\\*\\*((?:(?!\\*/)[\\s\\S])*)\\*/\\s*(?:export\\s+)?const\\s+${name}\\b`).exec(text);
  return m?.[1]
    .replace(/^\s*\*\s?/gm, "")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * Why a test or describe was skipped: the condition as written in its file (`skipIf(!LIVE)`), said
 * in words where the constants it names carry a doc comment (the comment, then the condition).
 */
function skipCondition(file, titles) {
  if (!existsSync(file)) return undefined;
  const text = readFileSync(file, "utf8");
  for (const title of [...titles].reverse()) {
    const quoted = title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const m = new RegExp(`\\.(skipIf|runIf|skip|todo)(\\(([^\\n]*?)\\))?\\(\\s*["'\`]${quoted}`).exec(text);
    if (!m) continue;
    if (m[1] !== "skipIf" && m[1] !== "runIf") return m[1];
    const code = `${m[1]}(${m[3]})`;
    const words = [...new Set(m[3].match(/[A-Za-z_$][\w$]*/g) ?? [])]
      .map((n) => commentOn(text, n))
      .filter(Boolean);
    return words.length > 0 ? `${words.join(" ")} (${code})` : code;
  }
  return /ctx\.skip\(|context\.skip\(/.test(text) ? "ctx.skip() inside the test" : undefined;
}

function summarise({ requireEvery }) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const missing = [];
  const brokenFiles = [];
  const skips = [];
  /** Cases per test file (relative to ROOT), whatever their status. */
  const countsByFile = new Map();
  for (const dir of testRoots()) {
    if (!existsSync(reportOf(dir))) {
      missing.push(dir);
      continue;
    }
    for (const suite of reportsOf(dir).flatMap(
      (file) => JSON.parse(readFileSync(file, "utf8")).testResults ?? [],
    )) {
      const tests = suite.assertionResults ?? [];
      const name = relative(ROOT, suite.name);
      countsByFile.set(name, (countsByFile.get(name) ?? 0) + tests.length);
      // A file that failed to load has no failed test in it: count it as one, or the total lies.
      if (suite.status === "failed" && !tests.some((t) => t.status === "failed")) {
        failed += 1;
        brokenFiles.push(`${relative(ROOT, suite.name)}: ${String(suite.message ?? "").split("\n")[0]}`);
      }
      for (const test of tests) {
        if (test.status === "passed") passed += 1;
        else if (test.status === "failed") failed += 1;
        else if (SKIPPED.has(test.status)) {
          skipped += 1;
          skips.push({ file: suite.name, titles: [...(test.ancestorTitles ?? []), test.title] });
        }
      }
    }
  }
  const reports = testRoots().length - missing.length;
  if (reports === 0) {
    console.error("no vitest reports were written: no test ran");
    return 1;
  }

  const said = new Set();
  if (skips.length > 0) {
    console.log(`skipped, and why (${skips.length}):`);
    const byFile = new Map();
    for (const s of skips) byFile.set(s.file, [...(byFile.get(s.file) ?? []), s]);
    const sharedFiles = HAS_SHARED ? [] : [...byFile.keys()].filter((f) => readsShared(f));
    for (const f of sharedFiles) said.add(relative(ROOT, f));
    if (sharedFiles.length > 0) {
      const count = sharedFiles.reduce((n, f) => n + (byFile.get(f)?.length ?? 0), 0);
      const where = sharedFiles.map((f) => `${relative(ROOT, f)} (${byFile.get(f)?.length})`).join(", ");
      console.log(
        `  ${count} need ../shared (the spec, resmon's OpenAPI and captured answers), which is not at ${SHARED}: ${where}`,
      );
    }
    for (const [file, list] of byFile) {
      if (sharedFiles.includes(file)) continue;
      const groups = new Map();
      for (const s of list) {
        const why = skipCondition(file, s.titles) ?? "no condition found in the file";
        const key = `${s.titles[0]}\u0000${why}`;
        groups.set(key, (groups.get(key) ?? 0) + 1);
      }
      for (const [key, n] of groups) {
        const [title, why] = key.split("\u0000");
        console.log(`  ${n} in ${relative(ROOT, file)} › ${title}: ${why}`);
      }
    }
  }
  const reported = testRoots().filter((dir) => !missing.includes(dir));
  for (const line of sharedCases(countsByFile, reported, requireEvery && missing.length === 0, said))
    console.log(line);
  for (const line of brokenFiles) console.log(`a test file failed to run: ${line}`);
  if (requireEvery && missing.length > 0)
    console.log(`no report from ${missing.join(", ")}: its tests did not run`);
  const refusal = sharedRefusal();
  if (refusal) console.log(refusal);
  console.log(`${reports} vitest reports`);
  console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  return failed > 0 || refusal || (requireEvery && missing.length > 0) ? 1 : 0;
}

const args = process.argv.slice(2);
if (args[0] === "--run") {
  const [command, ...rest] = args.slice(1);
  if (!command) {
    console.error("usage: node .ci/test-summary.mjs --run COMMAND [ARGS...]");
    process.exit(2);
  }
  const refusal = sharedRefusal();
  if (refusal) {
    console.error(refusal);
    process.exit(1);
  }
  // Stale reports from an earlier run must not be counted as this one's.
  for (const dir of testRoots()) rmSync(join(ROOT, dir, ".test-results"), { recursive: true, force: true });
  const run = spawnSync(command, rest, { cwd: ROOT, stdio: "inherit", shell: process.platform === "win32" });
  console.log();
  const code = summarise({ requireEvery: true });
  process.exit(run.status === 0 ? code : run.status || 1);
}
process.exit(summarise({ requireEvery: false }));
