import { TOOLS } from "./table.js";
import type { RouteRef } from "./types.js";

const routeKey = (r: RouteRef) => `${r.method} ${r.path}`;

/** The distinct method + path pairs the tools reach, derived from the rows in table order. */
export const ROUTES: readonly RouteRef[] = (() => {
  const seen = new Map<string, RouteRef>();
  for (const tool of TOOLS) {
    for (const route of tool.routes) {
      if (!seen.has(routeKey(route))) seen.set(routeKey(route), { method: route.method, path: route.path });
    }
  }
  return [...seen.values()];
})();

export function formatRoute(route: RouteRef): string {
  return routeKey(route);
}
