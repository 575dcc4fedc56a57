/**
 * contract/resmon-api.openapi.json against what we know: resmon 2.3's operations, every real
 * sample answer valid against our response schemas, and the generated types up to date.
 */
import { readdir, readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { readResponsesFile } from "../src/api-update.js";
import { API_DESCRIPTION, GENERATED_TYPES, renderApiTypes } from "../src/gen-api-types.js";
import { GENERATED_DECLARED, renderDeclared } from "../src/gen-declared.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const SAMPLES = resolve(repoRoot, "../shared/resmon/samples");
const doc = JSON.parse(await readFile(API_DESCRIPTION, "utf8")) as JsonObject;
const METHODS = ["get", "put", "post", "delete", "patch"] as const;

function isObject(value: Json | undefined): value is JsonObject {
  return value !== null && value !== undefined && typeof value === "object" && !Array.isArray(value);
}

function deref(value: Json | undefined): Json | undefined {
  if (!isObject(value) || typeof value.$ref !== "string") return value;
  let target: Json | undefined = doc;
  for (const part of value.$ref.slice(2).split("/")) target = isObject(target) ? target[part] : undefined;
  return deref(target);
}

function operations(): Array<{ method: string; path: string; op: JsonObject }> {
  const out: Array<{ method: string; path: string; op: JsonObject }> = [];
  for (const [path, item] of Object.entries(doc.paths as JsonObject)) {
    for (const method of METHODS) {
      const op = (item as JsonObject)[method];
      if (isObject(op)) out.push({ method: method.toUpperCase(), path, op });
    }
  }
  return out;
}

function jsonType(value: Json): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/** A small JSON Schema checker for the keywords our description uses. */
function validate(schemaIn: Json | undefined, value: Json, at: string, errors: string[]): void {
  const schema = deref(schemaIn);
  if (!isObject(schema)) return;
  if (schema.const !== undefined && JSON.stringify(schema.const) !== JSON.stringify(value)) {
    errors.push(`${at}: expected const ${JSON.stringify(schema.const)}`);
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) {
    errors.push(`${at}: not in enum`);
  }
  const types =
    typeof schema.type === "string" ? [schema.type] : Array.isArray(schema.type) ? schema.type : undefined;
  if (types) {
    const actual = jsonType(value);
    const ok = types.includes(actual) || (actual === "integer" && types.includes("number"));
    if (!ok) {
      errors.push(`${at}: expected ${types.join("|")}, got ${actual}`);
      return;
    }
  }
  for (const key of ["anyOf", "oneOf"] as const) {
    const branches = schema[key];
    if (Array.isArray(branches)) {
      const passing = branches.filter((b) => {
        const inner: string[] = [];
        validate(b, value, at, inner);
        return inner.length === 0;
      });
      if (passing.length === 0) errors.push(`${at}: matches none of ${key}`);
    }
  }
  if (Array.isArray(schema.allOf)) for (const part of schema.allOf) validate(part, value, at, errors);
  if (isObject(value)) {
    const props = isObject(schema.properties) ? schema.properties : {};
    if (Array.isArray(schema.required)) {
      for (const name of schema.required)
        if (typeof name === "string" && !(name in value)) errors.push(`${at}.${name}: required`);
    }
    for (const [name, item] of Object.entries(value)) {
      if (name in props) validate(props[name], item, `${at}.${name}`, errors);
      else if (isObject(schema.additionalProperties))
        validate(schema.additionalProperties, item, `${at}.${name}`, errors);
    }
  }
  if (Array.isArray(value) && schema.items !== undefined) {
    value.forEach((item, i) => {
      validate(schema.items, item, `${at}[${i}]`, errors);
    });
  }
}

describe("the API description", () => {
  it("describes the operations resmon 2.3 serves, by resmon's own paths", () => {
    const ops = operations();
    expect(ops.filter((o) => o.path.startsWith("/api/analytics/"))).toHaveLength(7);
    expect(ops.filter((o) => o.path.startsWith("/api/settings/"))).toHaveLength(18);
    expect(ops.some((o) => o.path.includes("{group}") || o.path.includes("{view}"))).toBe(false);
  });

  it("gives every operation a success schema, the guard's refusal and FastAPI's errors", () => {
    for (const { method, path, op } of operations()) {
      const responses = op.responses as JsonObject;
      const success = Object.keys(responses).filter((s) => s.startsWith("2"));
      expect(success.length, `${method} ${path}`).toBeGreaterThan(0);
      for (const status of success) {
        const content = (deref(responses[status]) as JsonObject).content as JsonObject;
        expect(Object.keys(content).length, `${method} ${path} ${status}`).toBeGreaterThan(0);
      }
      for (const status of ["401", "403", "422", "default"])
        expect(responses[status], `${method} ${path} ${status}`).toBeDefined();
    }
  });

  // Importing the contract and running openapi-typescript take seconds on a busy machine: no timing is held.
  it("describes every route of @resmon/mcp-contract (when it is built)", { timeout: 60_000 }, async (ctx) => {
    let routes: ReadonlyArray<{ method: string; path: string }> | undefined;
    try {
      const contract = (await import("@resmon/mcp-contract")) as {
        ROUTES?: ReadonlyArray<{ method: string; path: string }>;
      };
      routes = contract.ROUTES;
    } catch {
      routes = undefined;
    }
    if (!routes) {
      ctx.skip();
      return;
    }
    const ours = new Set(operations().map((o) => `${o.method} ${o.path}`));
    expect(routes.map((r) => `${r.method} ${r.path}`).filter((key) => !ours.has(key))).toEqual([]);
  });

  it("keeps the generated client types in step with the description", { timeout: 60_000 }, async () => {
    expect(await readFile(GENERATED_TYPES, "utf8")).toBe(await renderApiTypes());
  });

  it("keeps the stand-in's declared facts in step with the description", { timeout: 60_000 }, async () => {
    expect(await readFile(GENERATED_DECLARED, "utf8")).toBe(await renderDeclared());
  });
});

async function sampleFiles(): Promise<string[] | undefined> {
  try {
    return (await readdir(SAMPLES)).filter((f) => f.endsWith(".json")).sort();
  } catch {
    return undefined;
  }
}

function findOperation(method: string, concretePath: string): { path: string; op: JsonObject } | undefined {
  const bare = concretePath.split("?")[0] ?? concretePath;
  return operations().find(
    (o) => o.method === method && new RegExp(`^${o.path.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(bare),
  );
}

describe("the schema checker used below", () => {
  const health = deref({ $ref: "#/components/schemas/Health" });
  const good = {
    status: "ok",
    identity: { contract_version: 1, runtime_id: "r", schema_version: 21, corpus_id: null, build_id: null },
  };
  it("accepts a conforming body and extra fields", () => {
    const errors: string[] = [];
    validate(health, { ...good, extra: [1, 2] }, "body", errors);
    expect(errors).toEqual([]);
  });
  it.each([
    ["a missing required field", { identity: good.identity }, "body.status: required"],
    ["a wrong type", { ...good, pid: "4242" }, "body.pid: expected integer, got string"],
    [
      "a nested wrong type",
      { ...good, identity: { ...good.identity, schema_version: "21" } },
      "body.identity.schema_version",
    ],
  ])("rejects %s", (_what, body, expected) => {
    const errors: string[] = [];
    validate(health, body as Json, "body", errors);
    expect(errors.join("\n")).toContain(expected);
  });
});

describe("the real backend's answers fit our response schemas", async () => {
  const files = await sampleFiles();
  it.skipIf(files === undefined)(
    "has a sample of every answer whose basis is the samples, but four settings PUTs",
    async () => {
      const seen = new Set<string>();
      for (const file of files ?? []) {
        const sample = JSON.parse(await readFile(join(SAMPLES, file), "utf8"));
        const found = findOperation(sample.request.method, sample.request.path);
        if (found) seen.add(`${sample.request.method} ${found.path}`);
      }
      // What contract/resmon-api.responses.json says is checked against the samples (the tool routes
      // it was written for); a route typed since from another basis needs no sample.
      const answers = await readResponsesFile();
      const claimed = Object.entries(answers.operations)
        .filter(([, answer]) => answer.basis?.includes("checked against every recorded sample"))
        .map(([key]) => key);
      expect(claimed.length).toBeGreaterThan(0);
      const unsampled = claimed.filter((key) => !seen.has(key));
      // The capture wrote only the storage and notifications groups.
      expect(unsampled.sort()).toEqual([
        "PUT /api/settings/ai",
        "PUT /api/settings/assistant",
        "PUT /api/settings/email",
        "PUT /api/settings/embeddings",
      ]);
    },
  );

  it.skipIf(files === undefined).each(files ?? [])("%s", async (file) => {
    const sample = JSON.parse(await readFile(join(SAMPLES, file), "utf8"));
    const { method, path } = sample.request as { method: string; path: string };
    const { status, headers, body } = sample.response as {
      status: number;
      headers: Record<string, string>;
      body: Json;
    };
    const found = findOperation(method, path);
    expect(found, `${method} ${path} is described`).toBeDefined();
    const responses = found?.op.responses as JsonObject;
    const response = deref(responses[String(status)] ?? responses.default) as JsonObject;
    const content = response.content as JsonObject;
    const type = (headers["content-type"] ?? "application/json").split(";")[0]?.trim() ?? "";
    const media = content[type] as JsonObject | undefined;
    expect(media, `${method} ${path} ${status} declares ${type}`).toBeDefined();
    const errors: string[] = [];
    validate(media?.schema, body, "body", errors);
    expect(errors).toEqual([]);
  });
});
