import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { READ_TOOLS, SCAN_TOOL_NAMES, TOOL_BY_NAME, TOOLS, toolsListEntries } from "../src/index.js";
import { REPO_ROOT } from "./support/shared.js";

/**
 * The token budget for tools/list, which a harness pays in every conversation. Measured as the bytes
 * of the compact JSON a server sends; tokens estimated as bytes / 4 (a rough rule for English and
 * JSON — an estimate, not a tokenizer count). Measured at 1.0: 31,794 bytes with output schemas,
 * 23,205 without; a read-only session's list is 22,132.
 */
const BUDGET_BYTES = 34_000;
const BUDGET_TOKENS = 8_500;
/**
 * Contract 1.1's four scan tools on top, budgeted on their own so 1.0's budget keeps holding the 25:
 * measured at 9,918 bytes with output schemas (the plan and the three artifacts are nested shapes).
 */
const SCAN_BUDGET_BYTES = 12_000;
const isScanTool = (e: { name: string }) => (SCAN_TOOL_NAMES as readonly string[]).includes(e.name);
const bytes = (x: unknown) => Buffer.byteLength(JSON.stringify(x), "utf8");

describe("toolsListEntries", () => {
  it("lists every tool in table order with its flags where SDK clients keep them", () => {
    const entries = toolsListEntries();
    expect(entries.map((e) => e.name)).toEqual(TOOLS.map((t) => t.name));
    for (const e of entries) {
      const tool = TOOL_BY_NAME[e.name as keyof typeof TOOL_BY_NAME];
      expect(e.requires_confirmation, e.name).toBe(tool.requiresConfirmation);
      expect(e._meta, e.name).toEqual({ requires_confirmation: tool.requiresConfirmation });
      expect(e.annotations, e.name).toEqual({ title: tool.title, ...tool.annotations });
      expect(e.inputSchema.type, e.name).toBe("object");
      expect(e.outputSchema?.type, e.name).toBe("object");
      expect(JSON.stringify(e), e.name).not.toContain("$schema");
      expect(JSON.stringify(e), e.name).not.toContain("9007199254740991");
    }
  });

  it("lists only the reads in a read-only session", () => {
    const entries = toolsListEntries({ readOnly: true });
    expect(entries.map((e) => e.name)).toEqual([...READ_TOOLS]);
    expect(entries.every((e) => e.requires_confirmation === false)).toBe(true);
  });

  it("leaves output schemas off on request", () => {
    const entries = toolsListEntries({ outputSchemas: false });
    expect(entries.every((e) => e.outputSchema === undefined && !("outputSchema" in e))).toBe(true);
  });

  it("does not require a defaulted argument of the caller", () => {
    const [entry] = toolsListEntries().filter((e) => e.name === "list_executions");
    expect(entry?.inputSchema.required ?? []).not.toContain("limit");
  });

  it("hands out a fresh copy each call", () => {
    const [first] = toolsListEntries();
    if (first) Object.assign(first.annotations, { readOnlyHint: false });
    expect(toolsListEntries()[0]?.annotations.readOnlyHint).toBe(true);
  });

  it("uses only keywords a draft-07 validator (the MCP SDK's Ajv default) reads the same way", () => {
    const allowed = new Set([
      "type",
      "properties",
      "required",
      "additionalProperties",
      "items",
      "enum",
      "const",
      "anyOf",
      "minimum",
      "maximum",
      "exclusiveMinimum",
      "minLength",
      "maxLength",
      "pattern",
      "minItems",
      "maxItems",
      "minProperties",
      "default",
      "description",
    ]);
    const used = new Set<string>();
    const walk = (node: unknown, isPropertyMap = false): void => {
      if (Array.isArray(node)) {
        for (const n of node) walk(n);
        return;
      }
      if (node === null || typeof node !== "object") return;
      for (const [k, v] of Object.entries(node)) {
        if (!isPropertyMap) used.add(k);
        walk(v, !isPropertyMap && k === "properties");
      }
    };
    for (const e of toolsListEntries()) {
      walk(e.inputSchema);
      walk(e.outputSchema);
    }
    expect([...used].filter((k) => !allowed.has(k))).toEqual([]);
  });

  it(`stays within ${BUDGET_BYTES} bytes (~${BUDGET_TOKENS} tokens at bytes/4) for 1.0's tools, and ${SCAN_BUDGET_BYTES} for the scan tools`, () => {
    const entries = toolsListEntries();
    const full = bytes(entries.filter((e) => !isScanTool(e)));
    const scan = bytes(entries.filter(isScanTool));
    const lean = bytes(toolsListEntries({ outputSchemas: false }));
    console.info(
      `tools/list: ${bytes(entries)} bytes (~${Math.round(bytes(entries) / 4)} tokens: 1.0's tools ${full}, the scan tools ${scan}); without output schemas ${lean} bytes`,
    );
    expect(lean).toBeLessThan(bytes(entries));
    expect(full).toBeLessThanOrEqual(BUDGET_BYTES);
    expect(full / 4).toBeLessThanOrEqual(BUDGET_TOKENS);
    expect(scan).toBeLessThanOrEqual(SCAN_BUDGET_BYTES);
  });
});

const TOOLS_JSON = `${REPO_ROOT}contract/tools.json`;

describe.skipIf(!existsSync(TOOLS_JSON))("contract/tools.json", () => {
  const text = existsSync(TOOLS_JSON) ? readFileSync(TOOLS_JSON, "utf8") : "[]";

  it("is what tools/list advertises, and within the budget on the wire", () => {
    const parsed: unknown = JSON.parse(text);
    expect(parsed).toEqual(toolsListEntries());
    expect(bytes(parsed)).toBeLessThanOrEqual(BUDGET_BYTES + SCAN_BUDGET_BYTES);
  });
});
