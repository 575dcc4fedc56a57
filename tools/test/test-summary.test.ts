/**
 * .ci/test-summary.mjs, the closing count of `pnpm test` and CI: fixture reports in a throwaway
 * tree (no ../shared beside it) must come out as one total line, the ../shared skips said once, every
 * other skip with the condition its file wrote, and a file that failed to load counted as a failure.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
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
  const run = spawnSync(process.execPath, [SUMMARY, ...args], {
    env: { ...process.env, TEST_SUMMARY_ROOT: root },
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
