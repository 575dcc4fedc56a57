import { type DeclaredRoute, declaredOf } from "./declared.js";
import type { Handler } from "./reply.js";
import * as analytics from "./routes/analytics.js";
import { BEYOND_TOOLS } from "./routes/beyond-tools.js";
import { credentials, repositoriesCatalog } from "./routes/catalog.js";
import { getExecution, listExecutions, searchRecord } from "./routes/executions.js";
import { executionReferences, exportReferences } from "./routes/exports.js";
import { health } from "./routes/health.js";
import { explorerSearch, lifecycle, similar, why } from "./routes/papers.js";
import {
  createProfile,
  getProfile,
  getSettings,
  listProfiles,
  profileMatches,
  putSettings,
  watchdog,
} from "./routes/profiles.js";
import * as routines from "./routes/routines.js";
import { SETTINGS_GROUP_NAMES } from "./seed/settings.js";

const HANDLERS: Record<string, Handler> = {
  "GET /api/health": health,
  "POST /api/explorer/search": explorerSearch,
  "GET /api/documents/{document_id}/similar": similar,
  "GET /api/repositories/catalog": repositoriesCatalog,
  "GET /api/credentials": credentials,
  "GET /api/routines": routines.listRoutines,
  "GET /api/routines/{routine_id}": routines.getRoutine,
  "GET /api/routines/{routine_id}/deliveries": routines.deliveries,
  "GET /api/routines/{routine_id}/coverage": routines.coverage,
  "GET /api/executions": listExecutions,
  "GET /api/executions/{exec_id}": getExecution,
  "GET /api/executions/{exec_id}/references": executionReferences,
  "GET /api/executions/{exec_id}/search-record": searchRecord,
  "GET /api/documents/{doc_id}/why": why,
  "GET /api/documents/{doc_id}/lifecycle": lifecycle,
  "GET /api/analytics/overview": analytics.overview,
  "GET /api/analytics/publication-volume": analytics.volume,
  "GET /api/analytics/source-contribution": analytics.sources,
  "GET /api/analytics/keyword-contribution": analytics.keywords,
  "GET /api/analytics/routine-health": analytics.health,
  "GET /api/analytics/discovery-lag": analytics.lag,
  "GET /api/watchdog": watchdog,
  "POST /api/export/references": exportReferences,
  "GET /api/profiles": listProfiles,
  "GET /api/profiles/{profile_id}": getProfile,
  "GET /api/profiles/{profile_id}/matches": profileMatches,
  "POST /api/search/sweep": routines.sweep,
  "POST /api/routines": routines.createRoutine,
  "POST /api/profiles": createProfile,
  "POST /api/routines/{routine_id}/run": routines.runRoutine,
  "POST /api/routines/{routine_id}/activate": routines.activate,
  "POST /api/routines/{routine_id}/deactivate": routines.deactivate,
};
for (const g of SETTINGS_GROUP_NAMES) {
  HANDLERS[`GET /api/settings/${g}`] = getSettings(g);
  HANDLERS[`PUT /api/settings/${g}`] = putSettings(g);
}

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

/** What resmon declares for each route the tools use (the keys of HANDLERS), in table order. */
export const DECLARED_ROUTES: readonly DeclaredRoute[] = Object.keys(HANDLERS).map(declaredOf);

// The tools' routes, then the routes served for the api-client's examples.
export const ROUTES: readonly Route[] = [
  ...Object.entries(HANDLERS).map(([key, handler]) => compile(key, handler)),
  ...Object.entries(BEYOND_TOOLS).map(([key, handler]) => compile(key, handler)),
];

export type Match = { route: Route; params: Record<string, string> } | { route: null; pathKnown: boolean };

/** Literal paths win over templates (FastAPI declares /api/routines before /api/routines/{id}). */
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
