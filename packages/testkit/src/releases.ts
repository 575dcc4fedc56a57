import type { JsonObject } from "./model.js";
import { DECLARED_ROUTES } from "./router.js";

/**
 * Older resmon releases, as the stand-in plays them (`serve --as <version>`): which of the tools'
 * routes and answer fields each served, read from resmon's public repository
 * (github.com/ryanjosephkamp/resmon). Facts only; no code of resmon's is here.
 *
 * The history holds tags v1.6.0 and v1.6.1, then the 1.7 items (#19–#23) up to b91975a, whose
 * backend still reported version "1.6.1" (config.APP_VERSION): so a version string alone does not
 * place a backend, its route list does. 2.3 is the surface of ../shared/resmon/openapi.json and
 * samples/ (the v2.3.0 fixture, commit 131c820c; that backend's health reports "1.8.3").
 *
 * Kept as the real 1.6/1.7 were not, on purpose: the token guard and health's `identity` (this
 * server finds resmon by its token file and binds calls by runtime id; the public 1.6/1.7 backend
 * has neither). `unguarded` (serve --unguarded) plays that public build as it was: PUBLIC_BUILD.
 */
export type Line = "1.6" | "1.7" | "2.3";

export interface Release {
  /** What GET /api/health reports as `version`. */
  readonly version: string;
  readonly line: Line;
  /** The commit this release's facts were read at. */
  readonly commit: string;
}

export const RELEASES: readonly Release[] = [
  { version: "1.6.1", line: "1.6", commit: "d5aa0e1164c7d2555505f79d93fdfe43c0cb7d77" },
  { version: "1.7.0", line: "1.7", commit: "b91975ad3e2fb42cc2e4087b28d3e583a1196a04" },
  { version: "2.3.0", line: "2.3", commit: "131c820c902e49a6ef2e4bc82d4ff016384957cf" },
];

export const CURRENT_RELEASE = RELEASES[RELEASES.length - 1] as Release;

const V160 = "f26f4dde82fc370d38df1605b77bd01d9ef75595";
const WATCHDOG = "ecb1ff897a187d953202b9c0b3522628ea832f2e";
const WHY = "4b552cef3d8d425f24faf5f1a2b4c4ae9d59eb85";
const LIFECYCLE = "19b7d6ffbcff4c61a196d8a4a855d0018934325a";
const SEARCH_RECORD = "b91975ad3e2fb42cc2e4087b28d3e583a1196a04";

export interface Fact {
  /** A route ("GET /api/watchdog", parameters as `{}`) or an answer/body feature. */
  readonly what: string;
  readonly since: Line;
  /** Where it was read: the commit that added it, or the newest public commit without it. */
  readonly readAt: string;
  readonly note: string;
}

const ABSENT_AT_17 = `absent at ${SEARCH_RECORD.slice(0, 7)} (the newest public 1.7 commit); present in the 2.3 OpenAPI`;

/** Every route and feature of the tools' surface that 1.6.0 lacked ("1.6" facts: present at v1.6.0). */
export const FACTS: readonly Fact[] = [
  { what: "GET /api/watchdog", since: "1.7", readAt: WATCHDOG, note: "added by #20 (1.7)" },
  { what: "GET /api/analytics/keyword-contribution", since: "1.7", readAt: WHY, note: "added by #21 (1.7)" },
  { what: "GET /api/documents/{}/why", since: "1.7", readAt: WHY, note: "added by #21 (1.7)" },
  { what: "GET /api/documents/{}/lifecycle", since: "1.7", readAt: LIFECYCLE, note: "added by #22 (1.7)" },
  {
    what: "GET /api/executions/{}/search-record",
    since: "1.7",
    readAt: SEARCH_RECORD,
    note: "added by #23 (1.7)",
  },
  ...[
    "GET /api/documents/{}/similar",
    "GET /api/profiles",
    "GET /api/profiles/{}",
    "GET /api/profiles/{}/matches",
    "POST /api/profiles",
    "GET /api/routines/{}/coverage",
    "GET /api/routines/{}/deliveries",
    "POST /api/routines/{}/run",
    "GET /api/settings/assistant",
    "PUT /api/settings/assistant",
    "GET /api/settings/embeddings",
    "PUT /api/settings/embeddings",
  ].map((what): Fact => ({ what, since: "2.3", readAt: SEARCH_RECORD, note: ABSENT_AT_17 })),
  {
    what: "json_export",
    since: "2.3",
    readAt: SEARCH_RECORD,
    note: "reference_export.FORMATS is bibtex, ris, csv at v1.6.0 and b91975a: format=json is 400 'Unknown export format', include_ids undeclared",
  },
  {
    what: "export_by_execution",
    since: "2.3",
    readAt: SEARCH_RECORD,
    note: "ReferenceExportBody is {document_ids (required), format} at v1.6.0 and b91975a",
  },
  {
    what: "similarity_search",
    since: "2.3",
    readAt: SEARCH_RECORD,
    note: "ExplorerSearchBody declares no sort at v1.6.0 and b91975a; the reply has no sort or similarity counts",
  },
  {
    what: "routine_intent",
    since: "2.3",
    readAt: SEARCH_RECORD,
    note: "RoutineCreate and the routines table have no intent at v1.6.0 and b91975a",
  },
  {
    what: "missed_fires",
    since: "2.3",
    readAt: SEARCH_RECORD,
    note: "no missed_fires anywhere in the backend at v1.6.0 and b91975a",
  },
  {
    what: "run_lineage",
    since: "2.3",
    readAt: SEARCH_RECORD,
    note: "no interrupted_reason, restarted_from or restarted_into at v1.6.0 and b91975a",
  },
  {
    what: "run_coverage",
    since: "2.3",
    readAt: SEARCH_RECORD,
    note: "no coverage or source_outcomes on an execution at v1.6.0 and b91975a (the executions table and _enrich_execution_row)",
  },
  {
    what: "run_ownership",
    since: "2.3",
    readAt: SEARCH_RECORD,
    note: "no request_id, owner_pid, owner_runtime_id or last_seen_at_utc at v1.6.0 and b91975a; SweepRequest declares no request_id",
  },
  {
    what: "dedup_counts",
    since: "1.7",
    readAt: SEARCH_RECORD,
    note: "dedup_total, dedup_new, dedup_duplicates, dedup_invalid, dedup_cross_source columns added by #23 (1.7); absent at v1.6.0",
  },
  {
    what: "health_embeddings",
    since: "2.3",
    readAt: SEARCH_RECORD,
    note: "health() returns status, pid, started_at, version at v1.6.0 and b91975a: no embeddings (nor identity, kept on purpose)",
  },
  {
    what: "ai_run_controls",
    since: "2.3",
    readAt: SEARCH_RECORD,
    note: "_SETTINGS_GROUPS['ai'] at v1.6.0 and b91975a has no ai_chain, ai_cli_path, ai_local_endpoint, ai_effort or ai_subscription_doc_cap; _set_settings_group drops keys not in the group",
  },
];

/**
 * The public 1.6/1.7 build had no local API guard: no token check, no token file, no port file, and
 * health answered only status, pid, started_at and version (resmon_scripts/resmon.py `health()`;
 * its only middleware PrivateNetworkMiddleware and CORS allow_origins=["*"]; the daemon listens on
 * 8742 unless started with another port). Read at these two commits.
 */
export const PUBLIC_BUILD = {
  readAt: [V160, SEARCH_RECORD],
  healthKeys: ["status", "pid", "started_at", "version"],
} as const;

/** Whether the release was public without the guard (1.6, 1.7): the ones `unguarded` can play. */
export function isPublicBuild(release: Release): boolean {
  return release.line !== "2.3";
}

/** Every route the tools use that v1.6.0 served is a "1.6" fact, read at the v1.6.0 tag. */
export const ROUTES_AT_160 = V160;

export function routeShape(method: string, path: string): string {
  return `${method.toUpperCase()} ${path.replace(/\{[^}]*\}/g, "{}")}`;
}

function order(line: Line): number {
  return ["1.6", "1.7", "2.3"].indexOf(line);
}

/** The release `--as` names: "1.6", "1.6.1", "1.7", "2.3", "2.3.0"; undefined for one not played. */
export function releaseNamed(name: string): Release | undefined {
  return RELEASES.find((r) => r.version === name || r.line === name || r.version === `${name}.0`);
}

export function sinceOf(what: string): Line {
  return FACTS.find((f) => f.what === what)?.since ?? "1.6";
}

export function serves(release: Release, method: string, path: string): boolean {
  return order(sinceOf(routeShape(method, path))) <= order(release.line);
}

export function has(release: Release, feature: string): boolean {
  return order(sinceOf(feature)) <= order(release.line);
}

/** The release's own /openapi.json: the paths of the tools' routes it serves (what a server needs to know). */
export function openapiDocument(release: Release): JsonObject {
  const paths: Record<string, Record<string, JsonObject>> = {};
  for (const route of DECLARED_ROUTES) {
    if (!serves(release, route.method, route.path)) continue;
    const query = route.query.filter((q) => has(release, "json_export") || q !== "include_ids");
    const item = paths[route.path] ?? {};
    paths[route.path] = item;
    item[route.method.toLowerCase()] = {
      parameters: query.map((name) => ({ name, in: "query" })),
      responses: { "200": { description: "Successful Response" } },
    };
  }
  return { openapi: "3.1.0", info: { title: "resmon", version: release.version }, paths } as JsonObject;
}
