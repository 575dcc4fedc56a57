import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { declaredOf } from "../src/declared.js";
import { ROUTES } from "../src/router.js";

const OPENAPI = join(dirname(fileURLToPath(import.meta.url)), "../../../../shared/resmon/openapi.json");

interface Property {
  type?: string;
  anyOf?: Property[];
  items?: { type?: string };
}

/** The same spelling src/declared.ts uses: "integer", "array<string>", a trailing "?" when nullable. */
function typeName(p: Property): string {
  const options = p.anyOf ?? [p];
  const real = options.filter((o) => o.type !== "null");
  const first = real[0] ?? {};
  const base = first.type === "array" ? `array<${first.items?.type ?? "any"}>` : (first.type ?? "any");
  return real.length < options.length ? `${base}?` : base;
}

interface Operation {
  parameters?: { name: string; in: string }[];
  requestBody?: {
    content: {
      "application/json": {
        schema: { $ref?: string; properties?: Record<string, Property>; required?: string[] };
      };
    };
  };
}
interface OpenApi {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { properties?: Record<string, Property>; required?: string[] }> };
}

describe("the declared facts of the routes served", () => {
  it("serves each route once, each one an operation of the API description", () => {
    const keys = ROUTES.map((r) => `${r.declared.method} ${r.declared.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const key of keys) expect(declaredOf(key), key).toBeDefined();
  });

  it("refuses to declare a route the API description lacks", () => {
    expect(() => declaredOf("GET /api/made-up")).toThrow(
      /not an operation of contract\/resmon-api.openapi.json/,
    );
  });

  // The real backend's own OpenAPI, when beside the checkout: what the generated facts come from.
  it.skipIf(!existsSync(OPENAPI))("match resmon's own OpenAPI for every route served", () => {
    const api = JSON.parse(readFileSync(OPENAPI, "utf8")) as OpenApi;
    for (const { declared: route } of ROUTES) {
      const op = api.paths[route.path]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${route.path}`).toBeDefined();
      if (!op) continue;
      const query = (op.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name);
      expect([...route.query].sort()).toEqual(query.sort());
      let schema = op.requestBody?.content["application/json"].schema;
      if (schema?.$ref) schema = api.components.schemas[schema.$ref.split("/").pop() ?? ""];
      if (!schema) expect(route.body).toBeNull();
      else {
        expect([...(route.body?.fields ?? [])].sort()).toEqual(Object.keys(schema.properties ?? {}).sort());
        expect([...(route.body?.required ?? [])].sort()).toEqual([...(schema.required ?? [])].sort());
        const types = Object.fromEntries(
          Object.entries(schema.properties ?? {}).map(([k, v]) => [k, typeName(v)]),
        );
        expect(route.body?.types).toEqual(types);
      }
    }
  });
});
