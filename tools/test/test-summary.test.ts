/**
 * .ci/test-summary.mjs, the closing count of `pnpm test` and CI: fixture reports in a throwaway
 * tree (no ../shared beside it) must come out as one total line, the ../shared skips said once, every
 * other skip with the condition its file wrote, and a file that failed to load counted as a failure.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SERVER_DIR } from "../src/pack-snippets.js";

const SUMMARY = join(SERVER_DIR, "..", "..", ".ci", "test-summary.mjs");
let root = "";

function write(path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

function test(status: string, title: string, ancestorTitles: string[] = []) {
  return { status, title, ancestorTitles, fullName: [...ancestorTitles, title].join(" ") };
}

function report(dir: string, files: { name: string; status?: string; message?: string; tests: unknown[] }[]) {
  write(
    `${dir}/.test-results/vitest.json`,
    JSON.stringify({
      testResults: files.map((f) => ({
        name: join(root, f.name),
        status: f.status ?? "passed",
        message: f.message ?? "",
        assertionResults: f.tests,
      })),
    }),
  );
}

function summary(...args: string[]) {
  return summaryWith({}, ...args);
}

/** As a developer's run (CI unset) unless `env` says otherwise. */
function summaryWith(env: Record<string, string>, ...args: string[]) {
  const { CI: _ci, RESMON_TESTS_WITHOUT_SHARED: _declared, ...inherited } = process.env;
  const run = spawnSync(process.execPath, [SUMMARY, ...args], {
    env: { ...inherited, TEST_SUMMARY_ROOT: root, ...env },
    encoding: "utf8",
  });
  return { code: run.status, lines: `${run.stdout}${run.stderr}`.trim().split("\n") };
}

function fixture(): void {
  root = join(mkdtempSync(join(tmpdir(), "test-summary-")), "checkout");
  for (const dir of ["tools", "packages/kit"]) write(`${dir}/vitest.config.ts`, "export default {};\n");
  write(
    "packages/kit/test/support/shared.ts",
    'export const SAMPLES = "../../../../shared/resmon/samples";\n',
  );
  write("packages/kit/test/samples.test.ts", 'import { SAMPLES } from "./support/shared.js";\n');
  write(
    "packages/kit/test/live.test.ts",
    'describe.skipIf(!LIVE)("live resmon", () => {\n  it("answers", () => {});\n});\n',
  );
  write(
    "packages/kit/test/load.test.ts",
    '/** A few hundred calls are still the heap\'s warm-up:\n * the bound holds only in a run of thousands. */\nconst RSS_JUDGED = N >= 2000;\nit.skipIf(!RSS_JUDGED)("rss bound", () => {});\n',
  );
  report("packages/kit", [
    {
      name: "packages/kit/test/samples.test.ts",
      tests: [test("skipped", "replays a"), test("skipped", "replays b"), test("passed", "loads")],
    },
    { name: "packages/kit/test/live.test.ts", tests: [test("skipped", "answers", ["live resmon"])] },
    { name: "packages/kit/test/load.test.ts", tests: [test("skipped", "rss bound")] },
  ]);
  report("tools", [{ name: "tools/test/a.test.ts", tests: [test("passed", "one"), test("passed", "two")] }]);
}

afterEach(() => rmSync(dirname(root), { recursive: true, force: true }));

describe(".ci/test-summary.mjs", () => {
  it("ends on the total, says once that ../shared is missing, and names every other skip's condition", () => {
    fixture();
    const { code, lines } = summary();
    expect(code).toBe(0);
    expect(lines.at(-1)).toBe("tests: 3 passed, 0 failed, 4 skipped");
    expect(lines.filter((l) => l.includes("../shared"))).toEqual([
      expect.stringMatching(/^ {2}2 need \.\.\/shared .*: packages\/kit\/test\/samples\.test\.ts \(2\)$/),
    ]);
    expect(lines).toContain("  1 in packages/kit/test/live.test.ts › live resmon: skipIf(!LIVE)");
    // Where the condition's constant has a doc comment, the reason is said in its words.
    expect(lines).toContain(
      "  1 in packages/kit/test/load.test.ts › rss bound: A few hundred calls are still the heap's warm-up: the bound holds only in a run of thousands. (skipIf(!RSS_JUDGED))",
    );
  });

  it("without ../shared, states how many cases the last run with it had and this one could not generate", () => {
    fixture();
    write(
      ".ci/shared-cases.json",
      JSON.stringify({ "packages/kit/test/samples.test.ts": 127, "packages/kit/test/gone.test.ts": 9 }),
    );
    const { code, lines } = summary();
    expect(code).toBe(0);
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^124 cases could not be generated: \.\.\/shared is not at .*: packages\/kit\/test\/samples\.test\.ts 127 → 3$/,
      ),
    );
    expect(lines.at(-1)).toBe("tests: 3 passed, 0 failed, 4 skipped");
  });

  it("without ../shared and with no record (a fresh clone, CI), names the files whose cases were not generated", () => {
    fixture();
    // A file that reads ../shared and skips nothing: its cases from it were simply never generated.
    write("tools/test/api.test.ts", 'const SPEC = "../../shared/spec";\n');
    report("tools", [
      { name: "tools/test/api.test.ts", tests: [test("passed", "one"), test("passed", "two")] },
    ]);
    const { code, lines } = summary();
    expect(code).toBe(0);
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^\.\.\/shared is not at .*: 1 test files generate cases from it, and those cases were not generated \(no run with it on this machine recorded how many\): tools\/test\/api\.test\.ts$/,
      ),
    );
    expect(lines.at(-1)).toBe("tests: 3 passed, 0 failed, 4 skipped");
    const refused = summaryWith({ CI: "true" });
    expect(refused.code).toBe(1);
    expect(refused.lines).toContainEqual(
      expect.stringMatching(/and CI=true: without it the test cases generated from it are never generated;/),
    );
  });

  it("counts every report a folder holds: a separate step's (the doc replay's) beside vitest.json", () => {
    fixture();
    write(
      "tools/.test-results/doc-replay.json",
      JSON.stringify({
        testResults: [
          {
            name: join(root, "tools/test/doc.test.ts"),
            status: "passed",
            assertionResults: [test("passed", "d")],
          },
        ],
      }),
    );
    expect(summary().lines.at(-1)).toBe("tests: 4 passed, 0 failed, 4 skipped");
  });

  it("with CI=true, a missing ../shared fails the run in one line before any test runs", () => {
    fixture();
    write(".ci/shared-cases.json", JSON.stringify({ "packages/kit/test/samples.test.ts": 127 }));
    const ran = join(root, "ran");
    const touch = `require("fs").writeFileSync(${JSON.stringify(ran)}, "")`;
    const { code, lines } = summaryWith({ CI: "true" }, "--run", process.execPath, "-e", touch);
    expect(code).toBe(1);
    expect(lines).toEqual([
      expect.stringMatching(
        /^\.\.\/shared is not at .*, and CI=true: without it about 127 test cases are never generated;/,
      ),
    ]);
    expect(existsSync(ran)).toBe(false);
    expect(summaryWith({ CI: "true" }).code).toBe(1);
    // A CI that cannot provide it says so, and the run goes on, stating what it lacks.
    const declared = summaryWith({ CI: "true", RESMON_TESTS_WITHOUT_SHARED: "1" });
    expect(declared.code).toBe(0);
    expect(declared.lines).toContainEqual(expect.stringMatching(/^124 cases could not be generated/));
  });

  it("with ../shared present, a full run records each reading file's case count", () => {
    fixture();
    mkdirSync(join(dirname(root), "shared"));
    const stage = join(dirname(root), "stage");
    for (const dir of ["tools", "packages/kit"]) {
      mkdirSync(join(stage, dir), { recursive: true });
      cpSync(join(root, dir, ".test-results"), join(stage, dir, ".test-results"), { recursive: true });
    }
    const restore = `require("fs").cpSync(${JSON.stringify(stage)}, ${JSON.stringify(root)}, { recursive: true })`;
    const { code, lines } = summaryWith({ CI: "true" }, "--run", process.execPath, "-e", restore);
    expect(code).toBe(0);
    expect(lines).toContain(
      "recorded 3 cases in 1 files that read ../shared: .ci/shared-cases.json (this machine's record, not committed)",
    );
    expect(JSON.parse(readFileSync(join(root, ".ci", "shared-cases.json"), "utf8"))).toEqual({
      "packages/kit/test/samples.test.ts": 3,
    });
  });

  it("counts a test file that failed to load as a failure, and exits 1", () => {
    fixture();
    report("tools", [
      {
        name: "tools/test/broken.test.ts",
        status: "failed",
        message: "SyntaxError: nope\n  at x",
        tests: [],
      },
    ]);
    const { code, lines } = summary();
    expect(code).toBe(1);
    expect(lines).toContain("a test file failed to run: tools/test/broken.test.ts: SyntaxError: nope");
    expect(lines.at(-1)).toBe("tests: 1 passed, 1 failed, 4 skipped");
  });

  it("--run removes stale reports, passes the command's failure on, and names a package that wrote none", () => {
    fixture();
    expect(summary("--run", process.execPath, "-e", "process.exit(3)")).toEqual({
      code: 3,
      lines: ["no vitest reports were written: no test ran"],
    });
    // The command writes the tools report only: packages/kit's earlier one was removed, not counted.
    const tools = join(root, "tools", ".test-results");
    const writeTools = `require("fs").mkdirSync(${JSON.stringify(tools)}, { recursive: true }); require("fs").writeFileSync(${JSON.stringify(join(tools, "vitest.json"))}, JSON.stringify({ testResults: [] }))`;
    report("packages/kit", [{ name: "packages/kit/test/samples.test.ts", tests: [test("passed", "stale")] }]);
    const { code, lines } = summary("--run", process.execPath, "-e", writeTools);
    expect(code).toBe(1);
    expect(lines).toContain("no report from packages/kit: its tests did not run");
    expect(lines.at(-1)).toBe("tests: 0 passed, 0 failed, 0 skipped");
  });
});
