import { describe, expect, it } from "vitest";
import {
  NEXT_ACTION_CALLS,
  READ_TOOLS,
  SCAN_TEACHING,
  serverInstructions,
  TOOL_BY_NAME,
  toolForNextAction,
  WRITE_TOOLS,
} from "../src/index.js";
import { NEXT_ACTIONS } from "../src/scan-parts.js";

/**
 * Every byte of the instructions is read by the model at the start of every session: they stay
 * short. The budgets are the measured size (1.4 kB with the scan, under 0.3 kB read-only) plus a
 * little room, so a paragraph added without thought fails here.
 */
const FULL_BUDGET_BYTES = 1_600;
const READ_ONLY_BUDGET_BYTES = 400;
const bytes = (text: string) => Buffer.byteLength(text, "utf8");

describe("the server's instructions (serverInstructions)", () => {
  it("stay within their byte budgets", () => {
    expect(bytes(serverInstructions(false))).toBeLessThanOrEqual(FULL_BUDGET_BYTES);
    expect(bytes(serverInstructions(true))).toBeLessThanOrEqual(READ_ONLY_BUDGET_BYTES);
  });

  it("count the tools of each class from the table", () => {
    expect(serverInstructions(false)).toContain(`The ${WRITE_TOOLS.length} write tools`);
    expect(serverInstructions(true)).toContain(`only the ${READ_TOOLS.length} read tools`);
  });

  it("never read as asking the person before every write call", () => {
    const text = serverInstructions(false);
    expect(text).not.toMatch(/ask the person before calling one/i);
    expect(text).toMatch(/one approval covers/i);
  });

  it("teach the scan when its writes are listed, and only then", () => {
    expect(serverInstructions(false)).toContain(SCAN_TEACHING);
    expect(serverInstructions(true)).not.toContain("next_action");
  });
});

describe("the scan teaching (SCAN_TEACHING)", () => {
  it("says to follow next_action, to resume with the same scan_id, and which calls need a fresh approval", () => {
    expect(SCAN_TEACHING).toMatch(/Follow next_action on every answer/);
    expect(SCAN_TEACHING).toMatch(/send the same scan_id, never a new one/);
    expect(SCAN_TEACHING).toMatch(/covers the whole scan/);
    expect(SCAN_TEACHING).toMatch(/gap_queries other than \[\], or scan_start with a new scan_id/);
  });

  it.each(NEXT_ACTIONS.map((a) => [a]))("teaches %s as one line naming a scan tool", (action) => {
    const line = SCAN_TEACHING.split("\n").find((l) => l.startsWith(`${action} → `));
    expect(line, action).toBe(`${action} → ${NEXT_ACTION_CALLS[action]}`);
    const tool = toolForNextAction(action);
    // choose_option's call is one of the options its answer lists, each naming its tool.
    if (tool === null) return expect(NEXT_ACTION_CALLS[action]).toMatch(/^one of payload\.options: its tool/);
    expect(tool).toMatch(/^scan_/);
    expect(TOOL_BY_NAME[tool as "scan_start"], tool).toBeDefined();
  });

  it.each(NEXT_ACTIONS.filter((a) => toolForNextAction(a) !== null).map((a) => [a]))(
    "names only arguments %s's tool takes",
    (action) => {
      const tool = TOOL_BY_NAME[toolForNextAction(action) as "scan_start"];
      const shape = tool.input.shape as Record<string, unknown>;
      const named = NEXT_ACTION_CALLS[action].match(/\b[a-z]+_[a-z_]+\b/g) ?? [];
      for (const word of named.filter((w) => !w.startsWith("scan_") || w === "scan_id")) {
        expect(Object.keys(shape), `${action}: ${word}`).toContain(word);
      }
    },
  );
});
