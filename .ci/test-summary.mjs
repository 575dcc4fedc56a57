// The closing count of a test run, summed from the JSON reports each package's vitest run writes
// (<package>/.test-results/vitest.json): why anything was skipped, then one line,
// "tests: N passed, N failed, N skipped", which CI reads.
//
//   node .ci/test-summary.mjs                 summarise the reports already written
//   node .ci/test-summary.mjs --run CMD ...   remove old reports, run CMD (what `pnpm test` does), then
//                                             summarise; exits non-zero if CMD or any test failed
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

// TEST_SUMMARY_ROOT points it at another tree (its own test does, with fixture reports).
const ROOT = resolve(process.env.TEST_SUMMARY_ROOT ?? join(dirname(fileURLToPath(import.meta.url)), ".."));
const SHARED = resolve(ROOT, "..", "shared");
const SKIPPED = new Set(["pending", "skipped", "todo", "disabled"]);

/** Every workspace folder with a vitest config: each is expected to leave a report. */
function testRoots() {
  const packages = readdirSync(join(ROOT, "packages")).map((p) => join("packages", p));
  return ["tools", ...packages].filter((dir) => existsSync(join(ROOT, dir, "vitest.config.ts")));
}

const reportOf = (dir) => join(ROOT, dir, ".test-results", "vitest.json");

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
  for (const dir of testRoots()) {
    const file = reportOf(dir);
    if (!existsSync(file)) {
      missing.push(dir);
      continue;
    }
    const report = JSON.parse(readFileSync(file, "utf8"));
    for (const suite of report.testResults ?? []) {
      const tests = suite.assertionResults ?? [];
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

  if (skips.length > 0) {
    console.log(`skipped, and why (${skips.length}):`);
    const byFile = new Map();
    for (const s of skips) byFile.set(s.file, [...(byFile.get(s.file) ?? []), s]);
    const sharedFiles = existsSync(SHARED) ? [] : [...byFile.keys()].filter((f) => readsShared(f));
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
  for (const line of brokenFiles) console.log(`a test file failed to run: ${line}`);
  if (requireEvery && missing.length > 0)
    console.log(`no report from ${missing.join(", ")}: its tests did not run`);
  console.log(`${reports} vitest reports`);
  console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  return failed > 0 || (requireEvery && missing.length > 0) ? 1 : 0;
}

const args = process.argv.slice(2);
if (args[0] === "--run") {
  const [command, ...rest] = args.slice(1);
  if (!command) {
    console.error("usage: node .ci/test-summary.mjs --run COMMAND [ARGS...]");
    process.exit(2);
  }
  // Stale reports from an earlier run must not be counted as this one's.
  for (const dir of testRoots()) rmSync(join(ROOT, dir, ".test-results"), { recursive: true, force: true });
  const run = spawnSync(command, rest, { cwd: ROOT, stdio: "inherit", shell: process.platform === "win32" });
  console.log();
  const code = summarise({ requireEvery: true });
  process.exit(run.status === 0 ? code : run.status || 1);
}
process.exit(summarise({ requireEvery: false }));
