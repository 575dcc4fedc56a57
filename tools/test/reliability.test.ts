/**
 * The reliability suite's own checks: its detectors, judge and arbitraries can fail, and its table
 * is what the test results say. The groups themselves are test/reliability/*.test.ts (the fast
 * subset inside `pnpm test`; `pnpm reliability` runs them at full scale).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { argsFor, credentialShapedKey, refusedBeforeRequest } from "../src/reliability/args.js";
import { Canaries, leaksIn } from "../src/reliability/canaries.js";
import { judge } from "../src/reliability/outcome.js";
import { holds } from "../src/reliability/record.js";
import { formatTable, rowsFrom } from "../src/reliability/report.js";

describe("the suite's own checks can fail", () => {
  it("spots stack frames and exception text, and not ordinary messages", () => {
    expect(leaksIn("TypeError: x\n    at foo (/a/b.js:1:2)")).toEqual(
      expect.arrayContaining(["stack frame ('    at ')", "exception text ('Error:')"]),
    );
    expect(leaksIn('{"message":"\\n    at Object.<anonymous>"}')).toContain("escaped stack frame");
    expect(leaksIn('{"error":"not_found","message":"resmon has no routine 9."}')).toEqual([]);
  });

  it("spots a canary anywhere in a frame without printing it", () => {
    const c = new Canaries();
    c.add("A".repeat(43));
    expect(c.foundIn(`{"x":"..${"A".repeat(43)}.."}`)).toEqual(["AAAA…(43 chars)"]);
    expect(c.foundIn("A".repeat(42))).toEqual([]);
  });

  it("judges an answer: output schema, contract code, envelope shape", () => {
    const text = (o: unknown) => ({ content: [{ type: "text", text: JSON.stringify(o) }], isError: true });
    expect(judge("health", text({ error: "not_found", message: "m", detail: {} }), 0).kind).toBe("error");
    expect(judge("health", text({ error: "oops", message: "m", detail: {} }), 0).kind).toBe("bad");
    expect(judge("health", text({ error: "not_found", message: "m" }), 0).kind).toBe("bad");
    const wrong = { content: [{ type: "text", text: "{}" }], structuredContent: {} };
    expect(judge("list_routines", wrong, 0).kind).toBe("bad");
  });

  it("predicts the refusals placed before any request", () => {
    expect(refusedBeforeRequest("search_corpus", { query: "x", offset: 0 })).toMatch(/offset/);
    expect(refusedBeforeRequest("search_corpus", { query: "x" })).toBeNull();
    expect(refusedBeforeRequest("health", { expected_runtime_id: "ABC" })).not.toBeNull();
    expect(refusedBeforeRequest("update_settings", { group: "ai", settings: { MyToken: "v" } })).toMatch(
      /credential/,
    );
    expect(refusedBeforeRequest("update_settings", { group: "ai", settings: { ai_cli_path: "v" } })).toMatch(
      /withheld/,
    );
    expect(refusedBeforeRequest("update_settings", { group: "ai", settings: { ai_model: "v" } })).toBeNull();
  });

  it("generates both valid and invalid arguments, and only credential-shaped keys from that arbitrary", () => {
    const cases = fc.sample(argsFor("get_execution_results"), { numRuns: 300, seed: 1 });
    const refused = cases.filter((a) => refusedBeforeRequest("get_execution_results", a) !== null).length;
    expect(refused).toBeGreaterThan(30);
    expect(refused).toBeLessThan(270);
    for (const k of fc.sample(credentialShapedKey, { numRuns: 200, seed: 2 })) {
      expect(refusedBeforeRequest("update_settings", { group: "ai", settings: { [k]: "v" } })).toMatch(
        /credential/,
      );
    }
  });

  it("builds the table from vitest's JSON report: property cases, failures, skips, a group that stopped early", () => {
    const test = (status: string, cases?: number, failure = "") => ({
      title: "t",
      fullName: `g t ${status}`,
      status,
      failureMessages: failure ? [failure] : [],
      meta: cases === undefined ? {} : { cases, notes: [`${cases} runs`] },
    });
    const rows = rowsFrom({
      testResults: [
        {
          name: "/x/test/reliability/bad-input.test.ts",
          status: "failed",
          assertionResults: [
            test("passed", 40),
            test("failed", 7, "Error: Property failed\nmore"),
            test("skipped"),
          ],
        },
        {
          name: "/x/test/reliability/load.test.ts",
          status: "failed",
          message: "beforeAll threw",
          assertionResults: [],
        },
        { name: "/x/test/other.test.ts", status: "passed", assertionResults: [test("passed")] },
      ],
    });
    expect(rows.map((r) => [r.group, r.tried, r.passed, r.failed, r.skipped])).toEqual([
      ["bad input (property-based)", 47, 46, 1, 1],
      ["load", 0, 0, 1, 0],
    ]);
    expect(rows[0]?.failures).toEqual(["g t failed: Error: Property failed"]);
    expect(rows[0]?.notes).toEqual(["40 runs", "7 runs"]);
    expect(rows[1]?.failures[0]).toContain("beforeAll threw");
    expect(formatTable(rows)).toContain(
      "| total                      |          47 |     46 |      2 |       1 |",
    );
  });

  it("holds(): records the runs a property took, and a failure shrinks to the smallest case and says why", async () => {
    const ctx = { task: { meta: {} as { cases?: number } } };
    await holds(
      ctx,
      fc.asyncProperty(fc.nat(), async () => undefined),
      { numRuns: 25, seed: 1 },
    );
    expect(ctx.task.meta.cases).toBe(25);
    const failing = holds(
      ctx,
      fc.asyncProperty(fc.integer({ min: 0, max: 10_000 }), async (n) => {
        expect(n).toBeLessThan(500);
      }),
      { numRuns: 200, seed: 3 },
    );
    await expect(failing).rejects.toThrow(
      /Counterexample: \[500\][\s\S]*smallest case failed with: expected 500 to be less than 500/,
    );
    expect(ctx.task.meta.cases).toBeLessThanOrEqual(200);
  });
});
