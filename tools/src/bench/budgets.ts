import { READ_TOOLS, TOOLS } from "@resmon/mcp-contract";

/**
 * Token budgets (cl100k_base) for tools/list, enforced by tools/test/token-budget.test.ts. Each is
 * a size a tool (a read, for the read-only list), measured when it was set plus about 5% room, times
 * the tools the table has: a new tool of ordinary size brings its room with it (as the 640 bytes a
 * tool of packages/contract/test/tools-list.test.ts do), and a long one, or a change that grows the
 * list noticeably, fails a test and has to move its budget here, in review (issue 43: fixed totals
 * left one tool of room, which the doc's own self-test then spent). Each tool's answer budget is its
 * row's (`budget` in the contract's table).
 */
export const TOOLS_LIST_BUDGET_PER_TOOL = {
  /** Every tool with its output schema: 4,689 measured over 29 tools in contract 1.4 (161.7 a tool; 5,735 before issue 31, 7,447 before the first trim). */
  full: 169,
  /** Every tool without output schemas (outputSchemas: false): 4,242 over 29 (146.3 a tool; 5,389 before the first trim). */
  withoutOutputSchemas: 153,
  /** A read-only session (the reads only), a read: 2,316 over 19 reads (121.9 a read; 5,241 before the first trim). */
  readOnly: 129,
};

/** The budgets for today's table: each per-tool size times its tools. */
export const TOOLS_LIST_BUDGET = {
  full: TOOLS_LIST_BUDGET_PER_TOOL.full * TOOLS.length,
  withoutOutputSchemas: TOOLS_LIST_BUDGET_PER_TOOL.withoutOutputSchemas * TOOLS.length,
  readOnly: TOOLS_LIST_BUDGET_PER_TOOL.readOnly * READ_TOOLS.length,
};

/**
 * What a model reads of tools/list (name, description, inputSchema; bench/tokens.ts
 * modelVisibleSize), tokens a tool on average: issue 31's goal, ahead of the reference servers
 * (server-github 131, server-filesystem 118) but server-memory (97) and server-everything (82).
 * Also a budget (token-budget.test.ts): 109.9 measured in contract 1.4 (147 before); 110.8 since
 * issue 40 (scan_continue's stop_screening and its description of corrections). A new tool or a
 * longer description has to fit under it, or move it here, in review.
 */
export const MODEL_VISIBLE_PER_TOOL_GOAL = 111;

/**
 * The scan envelopes (a scripted scan on the demo data, tools/src/bench/tokens.ts scanEnvelopes),
 * which the design asks to stay "a few thousand tokens" each. Measured: a 25-item screening batch
 * (abstracts cut at 320 characters by the engine) 1,977; a 10-paper shortlist page 1,065; the result 838.
 * The result since issue 29: 1,373 (983 of it without what was added: each row's position, slot and
 * found_by, the mix sentence, alternates with why); its budget is that plus a fifth, as 838 had 1,050.
 * Issue 44: 1,662 once the scripted scan's shortlist holds the demo's retracted document 7 (the
 * result's `retracted` entry, title and notice); the budget moves by that entry, to 1,700. Issue 40:
 * 1,708 (the mix says unused foundational slots, a backfill why); budget 1,800.
 * The shortlist page measured is page 0, which since issue 40 also carries the overview (every other
 * shortlisted paper in one line) and what the bound left out (the best 10 of them in lines): 2,372
 * on the scripted demo scan (a later page, without them, stays about 1,065); budget that plus ~5%.
 */
export const SCAN_ENVELOPE_BUDGET: Record<string, number> = {
  "screening batch": 2_500,
  "shortlist page": 2_500,
  result: 1_800,
};
