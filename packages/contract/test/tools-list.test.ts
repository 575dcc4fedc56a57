import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  contractDocument,
  isListedReadOnly,
  READ_TOOLS,
  TOOL_BY_NAME,
  TOOLS,
  type ToolsListEntry,
  toolsListEntries,
  toToolJsonSchema,
} from "../src/index.js";
import { WORDED_PATTERNS, withoutServerChecks } from "../src/tools-list.js";
import { REPO_ROOT } from "./support/shared.js";

/**
 * The byte budget for tools/list, which a harness pays in every conversation: the compact JSON a
 * server sends. Per tool, so a new row has room and the budget moves with the table: 610 bytes a
 * tool for the whole list and 380 for what a model reads of it, each tool's name, description and
 * inputSchema (measured 590 and 362 for the 25 tools beside the scan tools in contract 1.4, after
 * issue 31 left server-checked bounds and patterns off the wire; 640 and 400 before, and 32,381 /
 * 17,808 bytes for 1.0's 25 before the first trim). Tokens are counted with a real tokenizer in
 * tools/test/token-budget.test.ts (what a model reads: at most 110 tokens a tool on average).
 */
const LIST_BYTES_PER_TOOL = 610;
const MODEL_READ_BYTES_PER_TOOL = 380;
/**
 * The scan tools (contract 1.1) carry a nested plan and three nested artifacts in their inputs, so
 * they are budgeted on their own: measured 5,906 bytes for the four (4,736 of it what a model
 * reads; 7,835 and 7,467 before issue 31).
 */
const SCAN_TOOLS = new Set(["scan_start", "scan_continue", "scan_verify", "scan_result"]);
const SCAN_LIST_BYTES = 6_200;
const SCAN_MODEL_READ_BYTES = 5_000;
const bytes = (x: unknown) => Buffer.byteLength(JSON.stringify(x), "utf8");
/** What a model reads of tools/list: each tool's name, description and inputSchema, as compact JSON. */
const modelRead = (entries: ToolsListEntry[]) =>
  entries.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));

describe("toolsListEntries", () => {
  it("lists every tool in table order with its flags where SDK clients keep them", () => {
    const entries = toolsListEntries();
    expect(entries.map((e) => e.name)).toEqual(TOOLS.map((t) => t.name));
    for (const e of entries) {
      const tool = TOOL_BY_NAME[e.name as keyof typeof TOOL_BY_NAME];
      expect(e.requires_confirmation, e.name).toBe(tool.requiresConfirmation);
      expect(e._meta, e.name).toEqual({ requires_confirmation: tool.requiresConfirmation });
      expect(e.title, e.name).toBe(tool.title);
      // destructive/idempotent mean something only for a tool that is not read-only (MCP).
      const { readOnlyHint, destructiveHint, idempotentHint, openWorldHint } = tool.annotations;
      expect(e.annotations, e.name).toEqual(
        readOnlyHint
          ? { readOnlyHint, openWorldHint }
          : { readOnlyHint, destructiveHint, idempotentHint, openWorldHint },
      );
      expect(e.inputSchema.type, e.name).toBe("object");
      expect(e.outputSchema?.type, e.name).toBe("object");
      expect(JSON.stringify(e), e.name).not.toContain("$schema");
      expect(JSON.stringify(e), e.name).not.toContain("9007199254740991");
    }
  });

  it("advertises the row's input schema, less what the server checks (and an argument stated once)", () => {
    for (const e of toolsListEntries()) {
      const tool = TOOL_BY_NAME[e.name as keyof typeof TOOL_BY_NAME];
      const wire = withoutServerChecks(toToolJsonSchema(tool.input, "input")) as typeof e.inputSchema;
      const properties = e.inputSchema.properties as Record<string, { description?: string }>;
      const own = Object.fromEntries(
        Object.entries(wire.properties as Record<string, unknown>).map(([k, v]) => [
          k,
          /^As in \w+\.$/.test(properties[k]?.description ?? "") ? properties[k] : v,
        ]),
      );
      expect(e.inputSchema, e.name).toEqual({ ...wire, properties: own });
      expect(tool.input.safeParse({ ...tool.example, zz_unknown: 1 }).success, e.name).toBe(false);
    }
  });

  it("promises on the wire the answer keys the row's output schema always carries", () => {
    for (const e of toolsListEntries()) {
      const full = contractDocument().tools.find((t) => t.name === e.name)?.output_schema;
      expect(e.outputSchema?.required ?? [], e.name).toEqual(full?.required ?? []);
    }
  });

  it("lists only the reads in a read-only session", () => {
    const entries = toolsListEntries({ readOnly: true });
    expect(entries.map((e) => e.name)).toEqual([...READ_TOOLS]);
    expect(entries.map((e) => e.name)).toEqual(TOOLS.filter(isListedReadOnly).map((t) => t.name));
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

  it("draws none of the MCP Inspector's schema-portability warnings, on the wire or in the contract", () => {
    // The Inspector (core/json/schemaLint.ts) flags a `type` list ("type-union"), a bare boolean
    // schema (`true`/`false` where a schema belongs) and a root that is not an object.
    const found: string[] = [];
    const walk = (node: unknown, where: string, isPropertyMap = false): void => {
      if (Array.isArray(node)) {
        node.forEach((n, i) => {
          walk(n, `${where}[${i}]`);
        });
        return;
      }
      if (node === null || typeof node !== "object") return;
      for (const [k, v] of Object.entries(node)) {
        const at = `${where}.${k}`;
        if (isPropertyMap || ["items", "additionalProperties"].includes(k)) {
          if (typeof v === "boolean" && !(k === "additionalProperties" && !isPropertyMap))
            found.push(`${at}: boolean schema`);
        }
        if (!isPropertyMap && k === "type" && Array.isArray(v)) found.push(`${at}: type list`);
        walk(v, at, !isPropertyMap && k === "properties");
      }
    };
    for (const e of toolsListEntries()) {
      walk(e.inputSchema, `${e.name}.inputSchema`);
      walk(e.outputSchema, `${e.name}.outputSchema`);
    }
    for (const t of contractDocument().tools) {
      walk(t.input_schema, `${t.name}.input_schema`);
      walk(t.output_schema, `${t.name}.output_schema`);
      expect(t.input_schema.type, t.name).toBe("object");
      expect(t.output_schema.type, t.name).toBe("object");
    }
    expect(found).toEqual([]);
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

  it(`stays within ${LIST_BYTES_PER_TOOL} bytes a tool, ${MODEL_READ_BYTES_PER_TOOL} of them what a model reads`, () => {
    const entries = toolsListEntries();
    const full = bytes({ tools: entries });
    const read = bytes(modelRead(entries));
    const lean = bytes({ tools: toolsListEntries({ outputSchemas: false }) });
    const readOnly = bytes({ tools: toolsListEntries({ readOnly: true }) });
    console.info(
      `tools/list (${entries.length} tools): ${full} bytes; what a model reads ${read}; without output schemas ${lean}; read-only ${readOnly}`,
    );
    expect(lean).toBeLessThan(full);
    expect(readOnly).toBeLessThan(full);
    const others = entries.filter((e) => !SCAN_TOOLS.has(e.name));
    const scan = entries.filter((e) => SCAN_TOOLS.has(e.name));
    expect(bytes({ tools: others })).toBeLessThanOrEqual(LIST_BYTES_PER_TOOL * others.length);
    expect(bytes(modelRead(others))).toBeLessThanOrEqual(MODEL_READ_BYTES_PER_TOOL * others.length);
    expect(bytes(scan)).toBeLessThanOrEqual(SCAN_LIST_BYTES);
    expect(bytes(modelRead(scan))).toBeLessThanOrEqual(SCAN_MODEL_READ_BYTES);
    expect(full).toBeLessThanOrEqual(LIST_BYTES_PER_TOOL * others.length + SCAN_LIST_BYTES);
    expect(read).toBeLessThanOrEqual(MODEL_READ_BYTES_PER_TOOL * others.length + SCAN_MODEL_READ_BYTES);
  });
});

/** Every (path, node) of a JSON Schema, depth first. */
function nodesOf(node: unknown, path = ""): [string, Record<string, unknown>][] {
  if (Array.isArray(node)) return node.flatMap((n, i) => nodesOf(n, `${path}[${i}]`));
  if (node === null || typeof node !== "object") return [];
  const here: [string, Record<string, unknown>][] = [[path, node as Record<string, unknown>]];
  return here.concat(Object.entries(node).flatMap(([k, v]) => nodesOf(v, `${path}.${k}`)));
}

describe("what tools/list leaves to the server (issue 31)", () => {
  it("sends no worded pattern, no additionalProperties false, no bound of 0 or 1", () => {
    const found: string[] = [];
    for (const e of toolsListEntries())
      for (const [at, node] of nodesOf(e.inputSchema, e.name)) {
        if (typeof node.pattern === "string" && WORDED_PATTERNS.has(node.pattern))
          found.push(`${at}.pattern`);
        if (node.additionalProperties === false) found.push(`${at}.additionalProperties`);
        for (const k of ["minLength", "minItems"]) if (node[k] === 1) found.push(`${at}.${k}`);
        if (node.minimum === 0 || node.minimum === 1) found.push(`${at}.minimum`);
      }
    expect(found).toEqual([]);
  });

  it("while the contract document, which the server checks against, still states them", () => {
    const doc = JSON.stringify(contractDocument().tools.map((t) => t.input_schema));
    for (const pattern of WORDED_PATTERNS) expect(doc).toContain(JSON.stringify(pattern).slice(1, -1));
    expect(doc).toContain('"additionalProperties":false');
    expect(doc).toContain('"minLength":1');
  });

  it("says in words what a left-off pattern said", () => {
    const said = (tool: string, path: string[]) => {
      let node = toolsListEntries().find((e) => e.name === tool)?.inputSchema as Record<string, unknown>;
      for (const key of path) node = (node.properties as Record<string, Record<string, unknown>>)[key] ?? {};
      return String(node.description);
    };
    expect(said("scan_result", ["scan_id"])).toMatch(/Lowercase UUIDv4/);
    expect(said("health", ["expected_runtime_id"])).toMatch(/identity\.runtime_id from health/);
    expect(said("search_corpus", ["date_from"])).toBe("YYYY-MM-DD.");
    expect(said("scan_start", ["since"])).toMatch(/YYYY-MM\./);
    expect(said("scan_start", ["queries"])).toBeDefined();
  });

  it("names a large argument an earlier tool of the same list spells out, by that tool", () => {
    for (const readOnly of [false, true]) {
      const entries = toolsListEntries({ readOnly });
      const names = entries.map((e) => e.name);
      for (const [i, e] of entries.entries())
        for (const [arg, schema] of Object.entries(
          e.inputSchema.properties as Record<string, { description?: string }>,
        )) {
          const ref = /^As in (\w+)\.$/.exec(schema.description ?? "")?.[1];
          if (ref === undefined) continue;
          expect(names.indexOf(ref), `${e.name}.${arg}`).toBeGreaterThanOrEqual(0);
          expect(names.indexOf(ref), `${e.name}.${arg}`).toBeLessThan(i);
          const referred = entries[names.indexOf(ref)]?.inputSchema.properties as
            | Record<string, unknown>
            | undefined;
          const full = referred?.[arg];
          expect(JSON.stringify(full)).not.toMatch(/^\{"type":"\w+","description":"As in/);
          // What the wire would have said is what the named tool's argument says.
          const own = TOOL_BY_NAME[e.name as keyof typeof TOOL_BY_NAME];
          const wire = withoutServerChecks(toToolJsonSchema(own.input, "input")) as {
            properties: Record<string, unknown>;
          };
          expect(wire.properties[arg], `${e.name}.${arg}`).toEqual(full);
        }
    }
    const verify = toolsListEntries().find((e) => e.name === "scan_verify");
    expect(verify?.inputSchema.properties).toMatchObject({
      ranked_entries: { type: "array", description: "As in scan_continue." },
    });
  });
});

const TOOLS_JSON = `${REPO_ROOT}contract/tools.json`;

describe.skipIf(!existsSync(TOOLS_JSON))("contract/tools.json", () => {
  const text = existsSync(TOOLS_JSON) ? readFileSync(TOOLS_JSON, "utf8") : "[]";

  it("is what tools/list advertises, and within the budget on the wire", () => {
    const parsed: unknown = JSON.parse(text);
    expect(parsed).toEqual(toolsListEntries());
    expect(bytes({ tools: parsed })).toBeLessThanOrEqual(
      LIST_BYTES_PER_TOOL * (TOOLS.length - SCAN_TOOLS.size) + SCAN_LIST_BYTES,
    );
  });
});
