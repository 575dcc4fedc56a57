import { describe, expect, it } from "vitest";
import { EXCLUDED_ROUTES, ROUTES, type RouteRef, TOOL_BY_NAME, TOOLS } from "../src/index.js";
import { OPENAPI, SPEC_TEXT } from "./support/shared.js";
import {
  specBackedRoutes,
  specExcludedRows,
  specRoutePairCount,
  specToolRows,
} from "./support/spec-tables.js";

const key = (r: RouteRef) => `${r.method} ${r.path}`;
const segments = (path: string) => path.split("/").filter(Boolean);
const isParam = (segment: string) => /^\{[^}]+\}$/.test(segment);
/** Parameter names compared after normalising case and separators (`{doc_id}` ≈ `{docId}`). */
const normalise = (segment: string) => segment.toLowerCase().replaceAll(/[_-]/g, "");

/** A template matches another when every segment is equal, or both are parameters. */
function structurallyEqual(a: string, b: string): boolean {
  const sa = segments(a);
  const sb = segments(b);
  return sa.length === sb.length && sa.every((s, i) => s === sb[i] || (isParam(s) && isParam(sb[i] ?? "")));
}

/** A spec pattern covers a route when its parameters stand for any one segment. */
function covers(pattern: string, path: string): boolean {
  const sp = segments(pattern);
  const sr = segments(path);
  return sp.length === sr.length && sp.every((s, i) => s === sr[i] || isParam(s));
}

describe("the route table", () => {
  it("is the distinct union of every row's routes", () => {
    const fromRows = new Set(TOOLS.flatMap((t) => t.routes.map(key)));
    expect(new Set(ROUTES.map(key))).toEqual(fromRows);
    expect(new Set(ROUTES.map(key)).size).toBe(ROUTES.length);
  });

  it("includes get_routine's coverage audit, the pair the spec's tables omit", () => {
    expect(TOOL_BY_NAME.get_routine.routes.map(key)).toContain("GET /api/routines/{routine_id}/coverage");
  });

  it("uses resmon's own parameter names", () => {
    const params = new Set(ROUTES.flatMap((r) => segments(r.path).filter(isParam)));
    expect([...params].sort()).toEqual([
      "{doc_id}",
      "{document_id}",
      "{exec_id}",
      "{profile_id}",
      "{routine_id}",
    ]);
  });

  it("reaches nothing that deletes, and none of the routes excluded on purpose", () => {
    for (const r of ROUTES) {
      expect(r.method === "GET" || r.method === "POST" || r.method === "PUT", key(r)).toBe(true);
      expect(r.path, key(r)).not.toMatch(/\/api\/(admin|service|credentials\/|lifecycle\/check)/);
      expect(r.path, key(r)).not.toMatch(/progress\/stream|\/restart$|\/cancel$/);
      expect(r.path, key(r)).not.toMatch(/\/api\/settings\/(execution|cloud)/);
    }
    expect(ROUTES.filter((r) => r.method === "PUT").every((r) => r.path.startsWith("/api/settings/"))).toBe(
      true,
    );
  });
});

describe.skipIf(SPEC_TEXT === undefined)("against the spec", () => {
  const spec = SPEC_TEXT ?? "";

  it("counts the pairs the spec states for its tools", () => {
    // The spec's count is of its own tools' routes: a tool added since may reach a new one.
    const named = new Set(specToolRows(spec).map((row) => row.name));
    const theirs = new Set(TOOLS.filter((t) => named.has(t.name)).flatMap((t) => t.routes.map(key)));
    expect(theirs.size).toBe(specRoutePairCount(spec));
  });

  for (const row of specToolRows(spec)) {
    it(`${row.name} reaches every route its Backed-by cell names`, () => {
      const tool = TOOLS.find((t) => t.name === row.name);
      const named = specBackedRoutes(row.backedByCell);
      expect(named.length, row.name).toBeGreaterThan(0);
      for (const n of named) {
        const hit = tool?.routes.some((r) => r.method === n.method && covers(n.path, r.path));
        expect(hit, `${row.name}: ${n.method} ${n.path}`).toBe(true);
      }
    });
  }

  it("lists every row of the spec's excluded table", () => {
    const ours = EXCLUDED_ROUTES.map((e) => e.route).join("\n");
    for (const row of specExcludedRows(spec)) {
      // Compared up to the first parameter: the spec writes {id} where resmon names it.
      const prefix = (/\/api\/[^`\s]*/.exec(row)?.[0] ?? "").split("{")[0] ?? "";
      expect(prefix.length, row).toBeGreaterThan(5);
      expect(ours.includes(prefix), row).toBe(true);
    }
    for (const e of EXCLUDED_ROUTES) expect(e.why.length, e.route).toBeGreaterThan(20);
  });
});

describe.skipIf(OPENAPI === undefined)("against resmon's openapi.json", () => {
  const paths = OPENAPI?.paths ?? {};

  for (const route of ROUTES) {
    it(`${key(route)} resolves`, () => {
      const matches = Object.keys(paths).filter((p) => structurallyEqual(p, route.path));
      const withMethod = matches.filter((p) => paths[p]?.[route.method.toLowerCase()] !== undefined);
      expect(withMethod, key(route)).toHaveLength(1);
      const apiPath = withMethod[0] ?? "";
      const ours = segments(route.path).filter(isParam).map(normalise);
      const theirs = segments(apiPath).filter(isParam).map(normalise);
      expect(ours, key(route)).toEqual(theirs);
    });
  }

  it("resolves no route that is a near miss of a real one", () => {
    // Guards the resolver itself: a made-up path or the wrong method must not resolve.
    const resolves = (method: string, path: string) =>
      Object.keys(paths).some((p) => structurallyEqual(p, path) && paths[p]?.[method] !== undefined);
    expect(resolves("get", "/api/routines/{routine_id}")).toBe(true);
    expect(resolves("put", "/api/routines/{routine_id}/run")).toBe(false);
    expect(resolves("get", "/api/routine/{routine_id}")).toBe(false);
  });
});
