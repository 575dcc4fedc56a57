import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { DECLARED_ROUTES } from "../src/index.js";

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

describe("the declared-parameter table", () => {
  it("names 44 distinct method+path pairs", () => {
    expect(new Set(DECLARED_ROUTES.map((r) => `${r.method} ${r.path}`)).size).toBe(44);
  });

  it.skipIf(!existsSync(OPENAPI))("matches resmon's own OpenAPI for every pair", () => {
    const api = JSON.parse(readFileSync(OPENAPI, "utf8")) as OpenApi;
    for (const route of DECLARED_ROUTES) {
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
