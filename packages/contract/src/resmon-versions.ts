import { SETTINGS_KEYS_WRITABLE } from "./settings.js";
import type { RouteRef } from "./types.js";

/**
 * Which resmon serves what the tools reach. resmon's public history has the 1.6 releases and the
 * 1.7 work after them; the current surface is 2.3's (`../shared/resmon/openapi.json`). The facts,
 * with the commit each was read from, are the stand-in's release table
 * (packages/testkit/src/releases.ts); a test holds the two to the same first versions.
 */
export const LINES_OF_RESMON = ["1.6", "1.7", "2.3"] as const;
export type ResmonLine = (typeof LINES_OF_RESMON)[number];

/** The oldest resmon this server answers for: every tool's first route is there. */
export const OLDEST_RESMON: ResmonLine = "1.6";

/** The reason a refusal names when this resmon lacks what a call needs (contract 1.2). */
export const NOT_IN_THIS_RESMON = "not_in_this_resmon";

/** Routes (method + path, parameters as `{}`) that 1.6.0 did not serve, by the first line that does. */
const ROUTE_SINCE: Readonly<Record<string, ResmonLine>> = {
  "GET /api/watchdog": "1.7",
  "GET /api/analytics/keyword-contribution": "1.7",
  "GET /api/documents/{}/why": "1.7",
  "GET /api/documents/{}/lifecycle": "1.7",
  "GET /api/executions/{}/search-record": "1.7",
  "GET /api/documents/{}/similar": "2.3",
  "GET /api/profiles": "2.3",
  "GET /api/profiles/{}": "2.3",
  "GET /api/profiles/{}/matches": "2.3",
  "POST /api/profiles": "2.3",
  "GET /api/routines/{}/coverage": "2.3",
  "GET /api/routines/{}/deliveries": "2.3",
  "POST /api/routines/{}/run": "2.3",
  "GET /api/settings/assistant": "2.3",
  "PUT /api/settings/assistant": "2.3",
  "GET /api/settings/embeddings": "2.3",
  "PUT /api/settings/embeddings": "2.3",
};

/** What a route's answer or body carries beyond its 1.6 form, by the first line that has it. */
export const FEATURE_SINCE = {
  /** `format=json` (and `include_ids`) on the reference exports: 1.6 and 1.7 render bibtex, ris, csv. */
  json_export: "2.3",
  /** `execution_ids` on POST /api/export/references (1.6 and 1.7 take `document_ids` only). */
  export_by_execution: "2.3",
  /** `sort: "similarity"` on the explorer search (1.6 and 1.7 declare no `sort`). */
  similarity_search: "2.3",
  /** `intent` on POST /api/routines and on routine rows. */
  routine_intent: "2.3",
  /** `missed_fires` on routine rows, `missed_fire_details` on the detail. */
  missed_fires: "2.3",
  /** `interrupted_reason`, `restarted_from`, `restarted_into` on executions. */
  run_lineage: "2.3",
  /** `coverage` and `source_outcomes` on executions (which sources answered a run). */
  run_coverage: "2.3",
  /** `request_id`, `owner_pid`, `owner_runtime_id`, `last_seen_at_utc` on executions; `request_id` on a sweep. */
  run_ownership: "2.3",
  /** `dedup_total`, `dedup_new`, `dedup_duplicates`, `dedup_invalid`, `dedup_cross_source` on executions. */
  dedup_counts: "1.7",
  /** `embeddings` (the semantic search capability) in GET /api/health. */
  health_embeddings: "2.3",
  /** The ai settings group's `ai_chain`, `ai_cli_path`, `ai_local_endpoint`, `ai_effort`, `ai_subscription_doc_cap`. */
  ai_run_controls: "2.3",
} as const satisfies Record<string, ResmonLine>;
export type ResmonFeature = keyof typeof FEATURE_SINCE;

/** Settings keys of a group older resmons serve that only a newer resmon has (1.6 drops them on a PUT, silently). */
export const SETTING_SINCE: Readonly<Record<string, ResmonFeature>> = {
  ai_chain: "ai_run_controls",
  ai_cli_path: "ai_run_controls",
  ai_local_endpoint: "ai_run_controls",
  ai_effort: "ai_run_controls",
  ai_subscription_doc_cap: "ai_run_controls",
};

/** "GET /api/routines/{}": a route with its parameter names dropped, as backends name them differently. */
export function routeShape(method: string, path: string): string {
  return `${method.toUpperCase()} ${path.replace(/\{[^}]*\}/g, "{}")}`;
}

/** The first resmon line that serves this route (1.6 for everything 1.6.0 already served). */
export function routeSince(route: RouteRef): ResmonLine {
  return ROUTE_SINCE[routeShape(route.method, route.path)] ?? "1.6";
}

/** Every route the tools reach that some older line lacks, with its first line. */
export function newerRoutes(): ReadonlyArray<readonly [shape: string, since: ResmonLine]> {
  return Object.entries(ROUTE_SINCE);
}

/** Numeric order of dotted versions ("1.6.1" < "1.7" < "2.3.0"); non-numeric parts count as 0. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(".").map((p) => Number.parseInt(p, 10) || 0);
  const pb = b.split(".").map((p) => Number.parseInt(p, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

export function newestLine(lines: readonly ResmonLine[]): ResmonLine {
  return lines.reduce<ResmonLine>((a, b) => (compareVersions(a, b) >= 0 ? a : b), OLDEST_RESMON);
}

/**
 * The line a reported version belongs to, for a backend whose own route list could not be read.
 * resmon 2.3's backend reports version "1.8.3" (the captured health), so 1.8 and later count as 2.3.
 */
export function lineOfVersion(version: string | null): ResmonLine {
  if (version === null) return OLDEST_RESMON;
  if (compareVersions(version, "1.8") >= 0) return "2.3";
  if (compareVersions(version, "1.7") >= 0) return "1.7";
  return "1.6";
}

/**
 * What each tool needs beyond its first route (its side routes are optional: get_routine answers
 * without deliveries or coverage). The scan tools need 1.6: corpus retrieval runs there, a scan that
 * sweeps is refused below 2.3 by scan_start (a sweep's rows come through the JSON export with ids),
 * and verification reads the CSV export where there is no JSON one.
 */
const TOOL_FEATURES: Readonly<Record<string, readonly ResmonFeature[]>> = {
  get_execution_results: ["json_export"],
};

/**
 * Answer keys that only a resmon with the feature reports, by tool, as the contract's surface spells
 * a path (`.key`, `[]` for a list's rows). On an older resmon the tool answers the rest and names
 * these keys in `not_reported` (row-level for a list's rows); on one with the feature an answer
 * without them is upstream_error (contract 1.3: before it, list_routines and get_routine needed 2.3).
 */
export const FEATURE_KEYS: Readonly<
  Partial<Record<ResmonFeature, Readonly<Record<string, readonly string[]>>>>
> = {
  missed_fires: {
    list_routines: [".routines[].missed_fires"],
    get_routine: [".missed_fires", ".missed_fire_details"],
  },
  run_lineage: { get_execution: [".interrupted_reason", ".restarted_from", ".restarted_into"] },
  run_coverage: {
    get_execution: [".coverage", ".source_outcomes"],
    list_executions: [".executions[].coverage"],
  },
};

/**
 * Arguments whose value needs more than the tool's own line: below the feature's line the call is
 * refused as the version gap before anything is sent (the tool answers otherwise). `values`: the
 * argument equals one of them (or, with `or_absent`, is left out: its default is one of them);
 * `present`: the argument is given at all; `keys`: the argument is a map holding one of them.
 */
export interface ArgumentNeed {
  readonly tool: string;
  readonly argument: string;
  readonly when:
    | { readonly values: readonly string[]; readonly or_absent?: true }
    | { readonly present: true }
    | { readonly keys: readonly string[] };
  readonly feature: ResmonFeature;
}

export const ARGUMENT_NEEDS: readonly ArgumentNeed[] = [
  { tool: "create_routine", argument: "intent", when: { present: true }, feature: "routine_intent" },
  { tool: "export_references", argument: "format", when: { values: ["json"] }, feature: "json_export" },
  // A sweep's papers come through the ID-bearing JSON export; "sweep" is the default.
  {
    tool: "scan_start",
    argument: "retrieval",
    when: { values: ["sweep", "both"], or_absent: true },
    feature: "json_export",
  },
  {
    tool: "update_settings",
    argument: "settings",
    // The writable ones: a withheld key is refused as withheld on any resmon.
    when: {
      keys: SETTINGS_KEYS_WRITABLE.filter((k) => SETTING_SINCE[k] === "ai_run_controls"),
    },
    feature: "ai_run_controls",
  },
];

/** The features one call's arguments need (beyond its tool's own line). */
export function argumentFeatures(tool: string, args: Readonly<Record<string, unknown>>): ResmonFeature[] {
  const out: ResmonFeature[] = [];
  for (const need of ARGUMENT_NEEDS) {
    if (need.tool !== tool) continue;
    const value = args[need.argument];
    const hit =
      "values" in need.when
        ? value === undefined
          ? need.when.or_absent === true
          : need.when.values.includes(value as string)
        : "present" in need.when
          ? value !== undefined
          : value !== null &&
            typeof value === "object" &&
            need.when.keys.some((k) => Object.hasOwn(value as object, k));
    if (hit) out.push(need.feature);
  }
  return out;
}

/** The oldest line on which a tool answers: its first route's line, or its features' if newer. */
export function toolNeeds(tool: { name: string; routes: readonly RouteRef[] }): ResmonLine {
  const first = tool.routes[0];
  const lines: ResmonLine[] = first ? [routeSince(first)] : [];
  for (const f of TOOL_FEATURES[tool.name] ?? []) lines.push(FEATURE_SINCE[f]);
  return newestLine(lines);
}

/**
 * A row's description, ending with the resmon it needs when that is newer than 1.6 (contract 1.2).
 * Every tool answers on 1.6 and later otherwise, as the server's description and the README say;
 * naming 1.6 on all 29 would cost the tools/list budget for no news.
 */
export function describeNeeds(row: {
  name: string;
  description: string;
  routes: readonly RouteRef[];
}): string {
  const line = toolNeeds(row);
  return line === OLDEST_RESMON ? row.description : `${row.description} resmon ${line}+`;
}
