/** The token part of the benchmark: summary rows for the main table, a detail table, and JSON. */
import type { Testkit } from "@resmon/testkit";
import { MODEL_VISIBLE_PER_TOOL_GOAL, TOOLS_LIST_BUDGET } from "./budgets.js";
import { type Row, row } from "./report.js";
import { TOKENIZER } from "./tokenizer.js";
import {
  ANSWER_TOKEN_CAP,
  answerBudget,
  defaultAnswers,
  largestPages,
  largestRecords,
  listSize,
  modelVisibleSize,
  testkitTools,
} from "./tokens.js";

export async function tokenRows(
  kit: Testkit,
): Promise<{ summary: Row[]; detail: Row[]; heading: string; json: unknown }> {
  const tools = testkitTools(kit);
  try {
    const full = listSize(tools);
    const defaults = await defaultAnswers(tools);
    const pages = await largestPages(tools);
    const records = await largestRecords(tools);
    const budget = answerBudget;
    const worstPage = pages.reduce((a, b) => (b.tokens > a.tokens ? b : a));
    const over = defaults.filter((d) => d.tokens > budget(d.tool));
    const visible = modelVisibleSize(tools);
    const summary = [
      row(
        `tools/list, what a model reads (name, description, inputSchema: ${visible.tokens} tokens), tokens a tool on average`,
        "tok",
        visible.perTool,
        null,
        `≤ ${MODEL_VISIBLE_PER_TOOL_GOAL}`,
        visible.perTool <= MODEL_VISIBLE_PER_TOOL_GOAL,
      ),
      row(
        `tools/list, ${full.count} tools (${full.bytes} bytes), tokens vs budget`,
        "tok",
        full.tokens,
        TOOLS_LIST_BUDGET.full,
        `≤ ${TOOLS_LIST_BUDGET.full}`,
        full.tokens <= TOOLS_LIST_BUDGET.full,
      ),
      row(
        `largest paginated answer at limit 100 (${worstPage.tool})`,
        "tok",
        worstPage.tokens,
        ANSWER_TOKEN_CAP,
        `≤ ${ANSWER_TOKEN_CAP}`,
        worstPage.tokens <= ANSWER_TOKEN_CAP,
      ),
      row("default-page answers over their budget", "", over.length, null, "0", over.length === 0),
    ];
    const detail = [
      ...defaults.map((d) =>
        row(
          `${d.tool}, default page (${d.bytes} bytes)`,
          "tok",
          d.tokens,
          budget(d.tool),
          `≤ ${budget(d.tool)}`,
          d.tokens <= budget(d.tool),
        ),
      ),
      ...pages.map((p) =>
        row(
          `${p.tool}, largest at limit 100 (${p.bytes} bytes)`,
          "tok",
          p.tokens,
          ANSWER_TOKEN_CAP,
          `≤ ${ANSWER_TOKEN_CAP}`,
          p.tokens <= ANSWER_TOKEN_CAP,
        ),
      ),
      ...records.map((r) =>
        row(
          `${r.tool}, largest on demo data ${JSON.stringify(r.args).slice(0, 36)}`,
          "tok",
          r.tokens,
          ANSWER_TOKEN_CAP,
          "reported",
          null,
        ),
      ),
    ];
    const heading = `Tokens (${TOKENIZER}) against the testkit's demo data; floor column = budget or the 25,000-token cap`;
    const json = {
      tokenizer: TOKENIZER,
      toolsList: full,
      modelVisible: visible,
      defaults: defaults.map((d) => ({ ...d, budget: budget(d.tool) })),
      largestPages: pages,
      largestRecords: records,
    };
    return { summary, detail, heading, json };
  } finally {
    await tools.close();
  }
}
