/**
 * The fast subset of `pnpm reliability`, inside `pnpm test`: every group at a small scale (the same
 * code, fewer generated cases), against the built server and the testkit. The full run is
 * `pnpm reliability` at the repository root.
 */
import { existsSync } from "node:fs";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { argsFor, credentialShapedKey, refusedBeforeRequest } from "../src/reliability/args.js";
import { Canaries, leaksIn } from "../src/reliability/canaries.js";
import { judge } from "../src/reliability/outcome.js";
import { SERVER_CLI } from "../src/reliability/proc.js";
import { GROUP_ORDER, runSuite } from "../src/reliability/suite.js";
import { formatTable, type GroupCount, type Tally } from "../src/reliability/tally.js";

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

  it("prints the table with a total row", () => {
    const rows: GroupCount[] = [{ group: "g", tried: 3, passed: 2, failed: 1, failures: [], notes: [] }];
    expect(formatTable(rows)).toContain("| total |           3 |      2 |      1 |");
  });
});

describe.skipIf(!existsSync(SERVER_CLI))("pnpm reliability, fast subset (scale 0.03)", () => {
  let tally: Tally;
  beforeAll(async () => {
    tally = await runSuite({ scale: 0.03, seed: 20260601, log: () => undefined });
  }, 180_000);

  it.each(GROUP_ORDER.map((g) => [g]))("%s: every case passes", (group) => {
    const rows = tally.all();
    expect(rows.length).toBe(GROUP_ORDER.length);
    const row = rows[GROUP_ORDER.indexOf(group as (typeof GROUP_ORDER)[number])];
    expect(row?.tried ?? 0).toBeGreaterThan(0);
    expect(row?.failures ?? ["missing"], formatTable(rows)).toEqual([]);
  });
});
