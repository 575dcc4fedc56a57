import { type DeclaredRoute, declaredOf } from "./declared.js";
import { MODULES } from "./generated/routes.js";
import type { Handler, Routes } from "./reply.js";
import { BEYOND_TOOLS } from "./routes/beyond-tools.js";

/**
 * The tools' routes: every `METHOD path` of the modules in src/routes (each file exports a record
 * named after it; the build indexes them in src/generated/routes.ts, so a new route is a new file or
 * a line in one). A route in two modules is a mistake, refused when the testkit loads.
 */
const HANDLERS: Routes = (() => {
  const all: Record<string, Handler> = {};
  for (const [module, routes] of Object.entries(MODULES as Record<string, Routes>)) {
    for (const [key, handler] of Object.entries(routes)) {
      if (all[key]) throw new Error(`${key} is served twice (again in src/routes/${module}.ts)`);
      all[key] = handler;
    }
  }
  return all;
})();

export interface Route {
  declared: DeclaredRoute;
  handler: Handler;
  pattern: RegExp;
  names: string[];
}

function compile(key: string, handler: Handler): Route {
  const declared = declaredOf(key);
  const names: string[] = [];
  const source = declared.path
    .replace(/[.*+?^$()|[\]\\]/g, "\\$&")
    .replace(/\{(\w+)\}/g, (_m, name: string) => {
      names.push(name);
      return "([^/]+)";
    });
  return { declared, handler, pattern: new RegExp(`^${source}$`), names };
}

/** What resmon declares for each route the tools use, in the modules' order. */
export const DECLARED_ROUTES: readonly DeclaredRoute[] = Object.keys(HANDLERS).map(declaredOf);

/** Fewer parameters first: a literal path wins over a template (FastAPI's /api/executions/active
 * is declared before /api/executions/{exec_id}), whatever order the modules list them in. */
const byParameters = (a: Route, b: Route) => a.names.length - b.names.length;

// The tools' routes and the routes served for the api-client's examples.
export const ROUTES: readonly Route[] = [
  ...Object.entries(HANDLERS).map(([key, handler]) => compile(key, handler)),
  ...Object.entries(BEYOND_TOOLS).map(([key, handler]) => compile(key, handler)),
].sort(byParameters);

export type Match = { route: Route; params: Record<string, string> } | { route: null; pathKnown: boolean };

export function match(method: string, path: string): Match {
  let pathKnown = false;
  for (const route of ROUTES) {
    const m = route.pattern.exec(path);
    if (!m) continue;
    pathKnown = true;
    if (route.declared.method !== method) continue;
    const params: Record<string, string> = {};
    route.names.forEach((n, i) => {
      params[n] = decodeURIComponent(m[i + 1] ?? "");
    });
    return { route, params };
  }
  return { route: null, pathKnown };
}
