/** `tool-size <tool>`: what one tool spends of the token budgets, as docs/adding-a-tool.md asks. */
import { TOOL_BY_NAME } from "@resmon/mcp-contract";
import { describe, expect, it } from "vitest";
import { TOOLS_LIST_BUDGET } from "../src/bench/budgets.js";
import { main } from "../src/tool-size.js";
import { runMain } from "./helpers/run-main.js";

describe("tool-size", () => {
  it("prints a tool's entry, its example answer against its row's budget and the list's room", async () => {
    const { code, out } = await runMain(main, ["get_routine"]);
    expect(out).toMatch(/^get_routine: tools\/list entry [\d,]+ B, [\d,]+ tokens$/m);
    expect(out).toMatch(/what a model reads of it \(name, description, inputSchema\): [\d,]+ tokens/);
    const answer = /example answer: ([\d,]+) tokens of its row's budget ([\d,]+)/.exec(out);
    expect(Number(answer?.[2]?.replaceAll(",", ""))).toBe(TOOL_BY_NAME.get_routine.budget);
    expect(Number(answer?.[1]?.replaceAll(",", ""))).toBeGreaterThan(0);
    expect(out).toContain(`of ${TOOLS_LIST_BUDGET.full.toLocaleString("en-US")} (`);
    // Within every budget today (token-budget.test.ts holds the same), so it exits 0.
    expect(code, out).toBe(0);
  }, 60_000);

  it("refuses a name that is not a tool, with exit code 2", async () => {
    const { code, out } = await runMain(main, ["no_such_tool"]);
    expect(code).toBe(2);
    expect(out).toContain('"no_such_tool" is not a tool of the contract');
  });
});
