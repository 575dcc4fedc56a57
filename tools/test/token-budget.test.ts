/**
 * Token budgets as tests: tools/list and every tool's default-page answer against the testkit's
 * demo data, counted with a real tokenizer (cl100k_base); no paginated answer at limit 100 over
 * 25,000 tokens; a whole-record or export answer that can exceed that says so in its description.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { READ_TOOLS, TOOLS } from "@resmon/mcp-contract";
import type { ResmonTools } from "@resmon/mcp-server";
import { startTestkit, type Testkit } from "@resmon/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  MODEL_VISIBLE_PER_TOOL_GOAL,
  SCAN_ENVELOPE_BUDGET,
  TOOLS_LIST_BUDGET,
} from "../src/bench/budgets.js";
import { countTokens } from "../src/bench/tokenizer.js";
import {
  ANSWER_TOKEN_CAP,
  answerBudget,
  defaultAnswers,
  largestPages,
  largestRecords,
  listSize,
  modelVisibleSize,
  scanEnvelopes,
  testkitTools,
} from "../src/bench/tokens.js";

/** Budgets set above the example's answer on purpose, and why. */
const ROOM_ON_PURPOSE: Record<string, string> = {
  scan_start:
    "its example answers before the sweeps finish; a start that finishes them answers a 25-item screening batch (SCAN_ENVELOPE_BUDGET)",
};

let stateDir: string;
/** The example calls, made once: each write's example starts work (a sweep) on the one stand-in. */
let answered: ReturnType<typeof defaultAnswers> | undefined;
const answers = () => {
  answered ??= defaultAnswers(tools);
  return answered;
};
let kit: Testkit;
let tools: ResmonTools;

beforeAll(async () => {
  stateDir = mkdtempSync(join(tmpdir(), "resmon-tokens-"));
  kit = await startTestkit({ stateDir, seed: "demo" });
  tools = testkitTools(kit);
  countTokens("warm up"); // loads the tokenizer's ranks once, outside any one test's time
}, 60_000);

afterAll(async () => {
  await tools?.close();
  await kit?.stop();
  rmSync(stateDir, { recursive: true, force: true });
});

describe("the tokenizer", () => {
  it("is a real BPE tokenizer, not a byte estimate", () => {
    expect(countTokens("hello world")).toBe(2);
    expect(countTokens('{"id":12345,"title":"A"}')).toBeLessThan('{"id":12345,"title":"A"}'.length / 2);
  });
});

describe("tools/list", () => {
  it("stays within its token budgets", () => {
    expect(listSize(tools).tokens).toBeLessThanOrEqual(TOOLS_LIST_BUDGET.full);
    const lean = testkitTools(kit, false);
    expect(listSize(lean).tokens).toBeLessThanOrEqual(TOOLS_LIST_BUDGET.withoutOutputSchemas);
    const readOnly = testkitTools(kit, true, { RESMON_MCP_READ_ONLY: "1" });
    const readOnlySize = listSize(readOnly);
    expect(readOnlySize.count).toBe(READ_TOOLS.length);
    expect(readOnlySize.tokens).toBeLessThanOrEqual(TOOLS_LIST_BUDGET.readOnly);
  });

  it(`what a model reads of it takes at most ${MODEL_VISIBLE_PER_TOOL_GOAL} tokens a tool on average`, () => {
    const visible = modelVisibleSize(tools);
    expect(visible.perTool).toBeLessThanOrEqual(MODEL_VISIBLE_PER_TOOL_GOAL);
    // Name, description and inputSchema only: the whole list (output schemas, annotations) is more.
    expect(visible.tokens).toBeLessThan(listSize(tools).tokens);
  });

  it("has an example call (its row's) and a budget for every tool it lists", () => {
    // defaultAnswers calls each row's example; the list and the table are the same tools.
    expect(tools.list().map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
    for (const t of TOOLS) {
      expect(t.example, t.name).toBeDefined();
      expect(answerBudget(t.name), t.name).toBeGreaterThan(0);
    }
  });
});

describe("answers on the demo data", () => {
  it("every tool's default page stays within its budget", async () => {
    const rows = await answers();
    const over = rows
      .filter((r) => r.tokens > answerBudget(r.tool))
      .map((r) => `${r.tool}: ${r.tokens} tokens > ${answerBudget(r.tool)}`);
    expect(over).toEqual([]);
  }, 30_000);

  it("every answer budget is measured, not a placeholder: at most half again its answer, plus 40", async () => {
    // docs/adding-a-tool.md's loop: measure the answer (tool-size), set it plus 20-25 %. A 400-token
    // placeholder for a 62-token answer passed every check (issue 43); this is the check it missed.
    const rows = await answers();
    const loose = rows
      .filter((r) => !(r.tool in ROOM_ON_PURPOSE))
      .filter((r) => answerBudget(r.tool) > r.tokens * 1.5 + 40)
      .map((r) => `${r.tool}: budget ${answerBudget(r.tool)} for a ${r.tokens}-token answer`);
    expect(loose).toEqual([]);
    expect(answerBudget("scan_start")).toBe(SCAN_ENVELOPE_BUDGET["screening batch"]);
  }, 30_000);

  it(`no paginated answer at limit 100 exceeds ${ANSWER_TOKEN_CAP} tokens`, async () => {
    const rows = await largestPages(tools);
    expect(rows.map((r) => r.tool).sort()).toEqual(
      [
        "find_similar",
        "get_execution_results",
        "get_profile_matches",
        "list_executions",
        "search_corpus",
      ].sort(),
    );
    for (const r of rows)
      expect(r.tokens, `${r.tool} ${JSON.stringify(r.args)}`).toBeLessThanOrEqual(ANSWER_TOKEN_CAP);
  }, 60_000);

  it("a whole-record or export tool that can exceed the cap says so in its description", async () => {
    const rows = await largestRecords(tools);
    const descriptions = new Map(tools.list().map((t) => [t.name, t.description]));
    for (const r of rows) {
      if (r.tokens <= ANSWER_TOKEN_CAP) continue;
      expect(descriptions.get(r.tool), `${r.tool} reached ${r.tokens} tokens`).toMatch(/25,000 tokens/);
    }
  }, 60_000);
});

describe("the scan envelopes on the demo data", () => {
  it("a 25-item screening batch with abstracts, a shortlist page and the result each stay within budget", async () => {
    const scanData = mkdtempSync(join(tmpdir(), "resmon-tokens-scan-"));
    const scanTools = testkitTools(kit, true, { RESMON_MCP_SCAN_DATA: scanData });
    try {
      const rows = await scanEnvelopes(scanTools);
      expect(rows.map((r) => r.tool)).toEqual(Object.keys(SCAN_ENVELOPE_BUDGET));
      for (const r of rows) {
        expect(r.tokens, `${r.tool}: ${r.tokens} tokens`).toBeLessThanOrEqual(
          SCAN_ENVELOPE_BUDGET[r.tool] ?? 0,
        );
      }
      // The batch really carries 25 abstracts: a budget held by a batch without them would prove nothing.
      expect(rows[0]?.tokens).toBeGreaterThan(1_500);
    } finally {
      await scanTools.close();
      rmSync(scanData, { recursive: true, force: true });
    }
  }, 120_000);
});
