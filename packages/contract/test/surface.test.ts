import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  isToolName,
  preApprovedTools,
  READ_TOOLS,
  TOOL_BY_NAME,
  TOOL_NAMES,
  TOOLS,
  type ToolDef,
  type ToolName,
  toToolJsonSchema,
  WRITE_TOOLS,
} from "../src/index.js";
import { SPEC_TEXT } from "./support/shared.js";
import { specArguments, specToolRows } from "./support/spec-tables.js";

const DESCRIPTION_BUDGET = 250;

describe("the table", () => {
  it("lists every row once, reads then writes", () => {
    expect(TOOLS.length).toBe(READ_TOOLS.length + WRITE_TOOLS.length);
    expect(new Set(TOOLS.map((t) => t.name)).size).toBe(TOOLS.length);
    const firstWrite = TOOLS.findIndex((t) => t.kind === "write");
    expect(TOOLS.slice(firstWrite).every((t) => t.kind === "write")).toBe(true);
  });

  it("has a row for every file of src/tools, each exporting the row named after it", async () => {
    const files = readdirSync(new URL("../src/tools/", import.meta.url)).filter((f) => f.endsWith(".ts"));
    expect(files.map((f) => f.replace(/\.ts$/, "")).sort()).toEqual([...TOOL_NAMES].sort());
    for (const f of files) {
      const name = f.replace(/\.ts$/, "") as ToolName;
      // Each file named by the listing above: vite cannot (and need not) expand this import at
      // transform time, so it is told to leave it alone instead of warning "invalid import".
      const mod = (await import(/* @vite-ignore */ `../src/tools/${name}.js`)) as Record<string, unknown>;
      expect(mod[name], f).toBe(TOOL_BY_NAME[name]);
    }
  });

  it("gives every row an example call its own schema takes, and a token budget for its answer", () => {
    for (const t of TOOLS) {
      const parsed = t.input.safeParse(t.example);
      expect(parsed.success, `${t.name} ${JSON.stringify(t.example)}`).toBe(true);
      expect(Number.isInteger(t.budget) && t.budget > 0, t.name).toBe(true);
    }
  });

  it("refuses by name only arguments its schema does not take, each with a sentence", () => {
    const refusing = TOOLS.filter((t) => t.refuses !== undefined);
    expect(refusing.map((t) => t.name)).toEqual(["search_corpus"]);
    for (const t of refusing) {
      for (const [field, why] of Object.entries(t.refuses ?? {})) {
        expect(field in t.input.shape, `${t.name}.${field}`).toBe(false);
        expect(why.length, `${t.name}.${field}`).toBeGreaterThan(40);
      }
    }
  });

  it("derives READ_TOOLS and WRITE_TOOLS from the rows, in table order", () => {
    expect([...READ_TOOLS, ...WRITE_TOOLS]).toEqual(TOOLS.map((t) => t.name));
    for (const name of READ_TOOLS) expect(TOOL_BY_NAME[name].kind).toBe("read");
    for (const name of WRITE_TOOLS) expect(TOOL_BY_NAME[name].kind).toBe("write");
  });

  it("keys every row by its own name", () => {
    for (const name of TOOL_NAMES) expect(TOOL_BY_NAME[name].name).toBe(name);
    expect(isToolName("health")).toBe(true);
    expect(isToolName("delete_corpus")).toBe(false);
  });

  it("asks confirmation for exactly the writes, and the annotations agree", () => {
    for (const t of TOOLS) {
      expect(t.requiresConfirmation, t.name).toBe(t.kind === "write");
      expect(t.annotations.readOnlyHint, t.name).toBe(t.kind === "read");
      // Nothing on this surface deletes or overwrites what the user cannot get back.
      expect(t.annotations.destructiveHint, t.name).toBe(false);
      if (t.kind === "read") expect(t.annotations.idempotentHint, t.name).toBe(true);
    }
  });

  it("marks every tool that starts a run as reaching outside the machine", () => {
    const startsRun = TOOLS.filter((t) =>
      t.routes.some(
        (r) => r.method === "POST" && (r.path === "/api/search/sweep" || r.path.endsWith("/run")),
      ),
    );
    expect(startsRun.map((t) => t.name).sort()).toEqual([
      "run_routine",
      "run_sweep",
      "scan_continue",
      "scan_start",
    ]);
    for (const t of startsRun) expect(t.annotations.openWorldHint, t.name).toBe(true);
  });

  it("calls a write idempotent exactly when it neither creates a record nor starts a run", () => {
    // POST to a collection (a new routine, profile or sweep) or to /run makes something new each time.
    const createsOrStarts = (path: string) =>
      /^\/api\/(routines|profiles|search\/sweep)$/.test(path) || path.endsWith("/run");
    for (const t of TOOLS.filter((x) => x.kind === "write")) {
      const makesNew = t.routes.some((r) => r.method === "POST" && createsOrStarts(r.path));
      // A scan write is keyed by the caller's scan_id: sent again with the same arguments it starts nothing new.
      const keyed = "scan_id" in t.input.shape;
      expect(t.annotations.idempotentHint, t.name).toBe(keyed || !makesNew);
    }
  });

  it("builds the assistant's pre-approved list from the reads only", () => {
    const list = preApprovedTools("resmon");
    expect(list).toEqual(READ_TOOLS.map((n) => `mcp__resmon__${n}`));
    expect(preApprovedTools()).toEqual(list);
    expect(preApprovedTools("rm").every((s) => s.startsWith("mcp__rm__"))).toBe(true);
    for (const w of WRITE_TOOLS) expect(list.some((s) => s.endsWith(`__${w}`))).toBe(false);
  });
});

describe.skipIf(SPEC_TEXT === undefined)("against the spec's tables", () => {
  const rows = specToolRows(SPEC_TEXT ?? "");

  // A tool added since (an additive change, contract 1.1 and on) may follow the spec's; none may go.
  const specNames = new Set(rows.map((r) => r.name));
  const inSpec = TOOLS.filter((t) => specNames.has(t.name));

  it("has as many tools, reads and writes of the spec's as it states", () => {
    const stated = /The tool surface is (\d+) tools: (\d+) reads and (\d+) writes/.exec(SPEC_TEXT ?? "");
    expect(stated).not.toBeNull();
    const count = (kind: string) => inSpec.filter((t) => t.kind === kind).length;
    expect([inSpec.length, count("read"), count("write")]).toEqual(stated?.slice(1).map(Number));
  });

  it("names every one of the spec's tools, in its order and with its read/write class", () => {
    expect(rows.map((r) => r.name)).toEqual(inSpec.map((t) => t.name));
    for (const r of rows) expect(TOOL_BY_NAME[r.name as keyof typeof TOOL_BY_NAME].kind, r.name).toBe(r.kind);
  });

  for (const row of rows) {
    it(`${row.name}: arguments, optionality, defaults and enums as the spec gives them`, () => {
      const tool = TOOLS.find((t) => t.name === row.name);
      expect(tool).toBeDefined();
      if (!tool) return;
      const schema = inputSchemaOf(tool);
      const nested = nestedProperties(schema);
      const required = new Set(schema.required ?? []);
      for (const arg of specArguments(row.argumentsCell)) {
        const prop = schema.properties[arg.name] ?? nested[arg.name];
        expect(prop, `${row.name}.${arg.name}`).toBeDefined();
        if (schema.properties[arg.name] !== undefined) {
          expect(required.has(arg.name), `${row.name}.${arg.name} required`).toBe(!arg.optional);
        }
        if (arg.default !== undefined) expect(prop?.default, `${row.name}.${arg.name}`).toBe(arg.default);
        if (arg.enumValues) expect(prop?.enum, `${row.name}.${arg.name}`).toEqual(arg.enumValues);
      }
    });
  }

  it("lets only the tools whose spec row names it take expected_runtime_id", () => {
    const named = rows.filter((r) => r.argumentsCell.includes("`expected_runtime_id")).map((r) => r.name);
    const taking = TOOLS.filter((t) => "expected_runtime_id" in t.input.shape).map((t) => t.name);
    expect(taking).toEqual(named);
    expect(taking).toEqual(["health", "get_execution"]);
  });

  it("adds arguments beyond the spec's only where its row says 'plus optional'", () => {
    for (const row of rows) {
      const tool = TOOLS.find((t) => t.name === row.name);
      if (!tool) continue;
      const specNames = new Set(specArguments(row.argumentsCell).map((a) => a.name));
      const extra = Object.keys(tool.input.shape).filter((k) => !specNames.has(k));
      if (!row.argumentsCell.includes("plus optional")) expect(extra, row.name).toEqual([]);
    }
  });
});

describe("surface invariants over every tool", () => {
  for (const tool of TOOLS) {
    it(`${tool.name}: snake_case, titled, a description within ${DESCRIPTION_BUDGET} characters`, () => {
      expect(tool.name).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(tool.title.length).toBeGreaterThan(0);
      expect(tool.description.length).toBeGreaterThan(40);
      expect(tool.description.length).toBeLessThanOrEqual(DESCRIPTION_BUDGET);
    });

    it(`${tool.name}: a top-level object input, no union or type list anywhere, snake_case keys`, () => {
      const schema = inputSchemaOf(tool) as JsonObjectSchema & Record<string, unknown>;
      expect(schema.type).toBe("object");
      expect(schema.additionalProperties).toBe(false);
      // Arguments go to function-calling schemas that take one type per value: no unions at all.
      expect(JSON.stringify(schema)).not.toMatch(/"(anyOf|oneOf|allOf|not|\$ref)"/);
      for (const [key, prop] of Object.entries({ ...schema.properties, ...nestedProperties(schema) })) {
        expect(typeof prop.type, key).toBe("string");
        expect(key).toMatch(/^[a-z]+(_[a-z]+)*$/);
      }
    });

    it(`${tool.name}: refuses an unknown argument rather than dropping it`, () => {
      const result = tool.input.safeParse({ zz_not_an_argument: 1 });
      expect(result.success).toBe(false);
      const codes = result.success ? [] : result.error.issues.map((i) => i.code);
      expect(codes).toContain("unrecognized_keys");
    });

    it(`${tool.name}: a loose object output (extra keys from resmon pass)`, () => {
      expect(tool.output.type).toBe("object");
      expect(tool.output._zod.def.catchall?._zod.def.type).toBe("unknown");
    });
  }
});

describe("limits and pages", () => {
  const withLimit = TOOLS.filter((t) => "limit" in t.input.shape);

  it("pages every tool that takes a limit at 25 by default, clamping above the ceiling of 100", () => {
    expect(withLimit.length).toBeGreaterThan(0);
    for (const t of withLimit) {
      const prop = inputSchemaOf(t).properties.limit;
      expect(prop?.default, t.name).toBe(25);
      const limitOnly = t.input.shape.limit as z.ZodType;
      expect(limitOnly.parse(100), t.name).toBe(100);
      expect(limitOnly.parse(101), t.name).toBe(100);
      expect(limitOnly.parse(1_000_000), t.name).toBe(100);
      expect(limitOnly.safeParse(0).success, t.name).toBe(false);
      expect(limitOnly.parse(undefined), t.name).toBe(25);
    }
  });

  it("applies defaults on parse", () => {
    const parsed = TOOL_BY_NAME.search_corpus.input.parse({ query: "diffusion" });
    expect(parsed).toEqual({ query: "diffusion", mode: "keyword", limit: 25 });
    expect(TOOL_BY_NAME.list_executions.input.parse({})).toEqual({ limit: 25, offset: 0 });
  });

  it("refuses an offset on search_corpus, which pages by cursor", () => {
    expect(TOOL_BY_NAME.search_corpus.input.safeParse({ query: "x", offset: 25 }).success).toBe(false);
    expect(TOOL_BY_NAME.search_corpus.input.safeParse({ query: "x", cursor: "abc" }).success).toBe(true);
  });

  it("takes dates as YYYY-MM-DD and ids as positive integers", () => {
    const sweep = TOOL_BY_NAME.run_sweep.input;
    const base = { query: "q", sources: ["arxiv"] };
    expect(sweep.safeParse({ ...base, date_from: "2026-01-31" }).success).toBe(true);
    expect(sweep.safeParse({ ...base, date_from: "31/01/2026" }).success).toBe(false);
    expect(TOOL_BY_NAME.get_execution.input.safeParse({ exec_id: 0 }).success).toBe(false);
    expect(TOOL_BY_NAME.get_execution.input.safeParse({ exec_id: 1.5 }).success).toBe(false);
    expect(TOOL_BY_NAME.get_execution.input.safeParse({ exec_id: 7 }).success).toBe(true);
  });

  it("takes only a canonical lowercase UUID4 as expected_runtime_id", () => {
    const input = TOOL_BY_NAME.health.input;
    expect(input.safeParse({ expected_runtime_id: "a557b1b5-0382-4f28-a866-3d5bb2700f73" }).success).toBe(
      true,
    );
    for (const bad of [
      "",
      "A557B1B5-0382-4F28-A866-3D5BB2700F73",
      "a557b1b5-0382-1f28-a866-3d5bb2700f73",
      "x",
    ]) {
      expect(input.safeParse({ expected_runtime_id: bad }).success, bad).toBe(false);
    }
  });

  it("takes settings as a non-empty map of strings, groups only from the allowlist", () => {
    const input = TOOL_BY_NAME.update_settings.input;
    expect(input.safeParse({ group: "ai", settings: { ai_model: "opus" } }).success).toBe(true);
    expect(input.safeParse({ group: "ai", settings: {} }).success).toBe(false);
    expect(input.safeParse({ group: "notifications", settings: { notify_manual: true } }).success).toBe(
      false,
    );
    expect(input.safeParse({ group: "execution", settings: { x: "1" } }).success).toBe(false);
  });

  it("refuses an offset on search_corpus by name, before its schema", () => {
    expect(TOOL_BY_NAME.search_corpus.refuses?.offset).toMatch(/pages by cursor/);
  });
});

interface JsonProp {
  description?: string;
  default?: unknown;
  enum?: unknown[];
  maximum?: number;
  type?: string | string[];
  properties?: Record<string, JsonProp>;
}
interface JsonObjectSchema {
  type: string;
  properties: Record<string, JsonProp>;
  required?: string[];
}

const inputSchemaOf = (tool: ToolDef) => toToolJsonSchema(tool.input, "input") as unknown as JsonObjectSchema;

/** Properties of object-valued arguments (create_routine's entity), one level down. */
function nestedProperties(schema: JsonObjectSchema): Record<string, JsonProp> {
  const out: Record<string, JsonProp> = {};
  for (const prop of Object.values(schema.properties)) Object.assign(out, prop.properties ?? {});
  return out;
}
