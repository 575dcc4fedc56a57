/**
 * `tsx src/tool-size.ts <tool>`: what one tool spends of the token budgets (cl100k_base), against
 * the testkit's demo data, as docs/adding-a-tool.md asks a new tool's author to measure:
 *
 * - its tools/list entry, whole and what a model reads of it (name, description, inputSchema);
 * - the answer to its row's `example` against its row's `budget`;
 * - the whole tools/list against TOOLS_LIST_BUDGET (tools/src/bench/budgets.ts), with the room left,
 *   and what a model reads of it, per tool on average, against MODEL_VISIBLE_PER_TOOL_GOAL.
 *
 * Exit 1 when a budget is exceeded (the same budgets tools/test/token-budget.test.ts holds), 2 on a
 * name that is not a tool. Needs `pnpm build`.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TOOL_BY_NAME, type ToolName } from "@resmon/mcp-contract";
import { startTestkit } from "@resmon/testkit";
import { MODEL_VISIBLE_PER_TOOL_GOAL, TOOLS_LIST_BUDGET } from "./bench/budgets.js";
import { sizeOf } from "./bench/tokenizer.js";
import { listSize, modelVisibleSize, testkitTools } from "./bench/tokens.js";
import { runIfMain } from "./run-main.js";

const fmt = (n: number) => n.toLocaleString("en-US");

export async function main(argv: string[]): Promise<number> {
  const name = argv[0] ?? "";
  if (!(name in TOOL_BY_NAME)) {
    console.error(`usage: tsx src/tool-size.ts <tool>: "${name}" is not a tool of the contract`);
    return 2;
  }
  const row = TOOL_BY_NAME[name as ToolName];
  const stateDir = await mkdtemp(join(tmpdir(), "resmon-tool-size-"));
  const kit = await startTestkit({ stateDir, seed: "demo" });
  const tools = testkitTools(kit);
  const lean = testkitTools(kit, false);
  const readOnly = testkitTools(kit, true, { RESMON_MCP_READ_ONLY: "1" });
  try {
    const entry = tools.list().find((t) => t.name === name);
    const { name: _n, description, inputSchema } = entry ?? {};
    const own = sizeOf(entry);
    const read = sizeOf({ name, description, inputSchema });
    console.log(`${name}: tools/list entry ${fmt(own.bytes)} B, ${fmt(own.tokens)} tokens`);
    console.log(`  what a model reads of it (name, description, inputSchema): ${fmt(read.tokens)} tokens`);

    const over: string[] = [];
    if (row.exampleNeeds)
      console.log("  example answer: needs earlier calls; measured by the scan envelopes");
    else {
      const outcome = await tools.call(name, row.example);
      if (!outcome.ok) {
        console.log(`  example answer: ${outcome.error.error}: ${outcome.error.message}`);
        over.push("example");
      } else {
        const answer = sizeOf(outcome.answer);
        console.log(`  example answer: ${fmt(answer.tokens)} tokens of its row's budget ${fmt(row.budget)}`);
        if (answer.tokens > row.budget) over.push("answer budget");
      }
    }
    const lists = [
      ["full", listSize(tools).tokens, TOOLS_LIST_BUDGET.full],
      ["without output schemas", listSize(lean).tokens, TOOLS_LIST_BUDGET.withoutOutputSchemas],
      ["read-only", listSize(readOnly).tokens, TOOLS_LIST_BUDGET.readOnly],
    ] as const;
    for (const [what, tokens, budget] of lists) {
      console.log(
        `tools/list ${what}: ${fmt(tokens)} tokens of ${fmt(budget)} (${fmt(budget - tokens)} left)`,
      );
      if (tokens > budget) over.push(`tools/list ${what}`);
    }
    const visible = modelVisibleSize(tools).perTool;
    console.log(
      `tools/list, what a model reads: ${visible.toFixed(1)} tokens a tool on average of ${MODEL_VISIBLE_PER_TOOL_GOAL}`,
    );
    if (visible > MODEL_VISIBLE_PER_TOOL_GOAL) over.push("model-visible tokens a tool");
    if (over.length > 0) console.log(`over budget: ${over.join(", ")}`);
    return over.length > 0 ? 1 : 0;
  } finally {
    await tools.close();
    await lean.close();
    await readOnly.close();
    await kit.stop();
    await rm(stateDir, { recursive: true, force: true });
  }
}

runIfMain(import.meta.url, "tool-size", main);
