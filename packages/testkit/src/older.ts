import { has, type Release } from "./releases.js";
import type { Query, Reply } from "./reply.js";
import { queryValue } from "./reply.js";

/**
 * What an older release does differently on a route it serves (releases.ts has the facts): the
 * request fields it does not declare are refused as the testkit refuses any undeclared field (the
 * real backend would silently ignore them), its own refusals are answered as it answered them, and
 * the answer fields it did not have are left out.
 */

type Json = Record<string, unknown>;

const asJson = (x: unknown): Json => (x && typeof x === "object" && !Array.isArray(x) ? (x as Json) : {});

/** Request fields each route lacked before the feature that brought them. */
const UNDECLARED_BEFORE: ReadonlyArray<{
  route: string;
  feature: string;
  query?: string[];
  body?: string[];
}> = [
  { route: "GET /api/executions/{exec_id}/references", feature: "json_export", query: ["include_ids"] },
  { route: "POST /api/export/references", feature: "export_by_execution", body: ["execution_ids"] },
  { route: "POST /api/explorer/search", feature: "similarity_search", body: ["sort"] },
  { route: "POST /api/routines", feature: "routine_intent", body: ["intent"] },
  { route: "POST /api/search/sweep", feature: "run_ownership", body: ["request_id"] },
];

const OLD_FORMATS = "bibtex, csv, ris";

/** The ai settings keys 1.6/1.7 lack: their PUT drops them without a word (`_set_settings_group`). */
const AI_RUN_CONTROLS = [
  "ai_chain",
  "ai_cli_path",
  "ai_local_endpoint",
  "ai_effort",
  "ai_subscription_doc_cap",
];

export interface OlderRefusal {
  reply: Reply;
  /** True when it is the testkit's strictness refusal, not the release's own answer. */
  strictness: boolean;
}

/** The testkit's strictness refusal: a field the release would not read, named, so a test sees it. */
function undeclared(route: string, why: string, query: string[], body: string[]): OlderRefusal {
  return {
    strictness: true,
    reply: {
      status: 400,
      body: {
        detail: {
          reason: "testkit_undeclared",
          message: `The testkit refused ${route}: ${why}`,
          undeclared_query: query,
          undeclared_body: body,
        },
      },
    },
  };
}

export function olderRequest(
  release: Release,
  route: string,
  query: Query,
  body: unknown,
): OlderRefusal | null {
  const sentBody = asJson(body);
  for (const rule of UNDECLARED_BEFORE) {
    if (rule.route !== route || has(release, rule.feature)) continue;
    const q = (rule.query ?? []).filter((name) => name in query);
    const b = (rule.body ?? []).filter((name) => Object.hasOwn(sentBody, name));
    if (q.length === 0 && b.length === 0) continue;
    const named = [...q.map((n) => `query parameter '${n}'`), ...b.map((n) => `body field '${n}'`)];
    return undeclared(
      route,
      `resmon ${release.version} does not declare ${named.join(", ")} for this route. That release would silently ignore it.`,
      q,
      b,
    );
  }
  if (route === "PUT /api/settings/ai" && !has(release, "ai_run_controls")) {
    const dropped = Object.keys(asJson(sentBody.settings)).filter((k) => AI_RUN_CONTROLS.includes(k));
    if (dropped.length > 0) {
      const why = `resmon ${release.version} has no ai setting ${dropped.join(", ")}. That release would drop it and answer success.`;
      return undeclared(
        route,
        why,
        [],
        dropped.map((k) => `settings.${k}`),
      );
    }
  }
  const format = route === "POST /api/export/references" ? sentBody.format : queryValue(query, "format");
  const exports =
    route === "POST /api/export/references" || route === "GET /api/executions/{exec_id}/references";
  if (route === "POST /api/export/references" && !has(release, "export_by_execution")) {
    if (!Array.isArray(sentBody.document_ids)) {
      return {
        strictness: false,
        reply: {
          status: 422,
          body: {
            detail: [
              { type: "missing", loc: ["body", "document_ids"], msg: "Field required", input: body ?? null },
            ],
          },
        },
      };
    }
  }
  if (exports && format === "json" && !has(release, "json_export")) {
    return {
      strictness: false,
      reply: {
        status: 400,
        body: { detail: `Unknown export format 'json'. Expected one of: ${OLD_FORMATS}.` },
      },
    };
  }
  return null;
}

/** An execution's keys by the feature that brought them (the 1.6 row is the executions table plus query, keywords, repositories, total_results, new_results, saved_configuration_name). */
const EXECUTION_KEYS_SINCE: ReadonlyArray<readonly [feature: string, keys: string[]]> = [
  ["run_lineage", ["interrupted_reason", "restarted_from", "restarted_into"]],
  ["run_coverage", ["coverage", "source_outcomes"]],
  ["run_ownership", ["request_id", "owner_pid", "owner_runtime_id", "last_seen_at_utc"]],
  ["dedup_counts", ["dedup_total", "dedup_new", "dedup_duplicates", "dedup_invalid", "dedup_cross_source"]],
];

/** Answer keys each route's rows lacked before the feature that brought them. */
const ABSENT_BEFORE: ReadonlyArray<{ route: string; feature: string; keys: string[]; rows?: boolean }> = [
  { route: "GET /api/routines", feature: "missed_fires", keys: ["missed_fires"], rows: true },
  { route: "GET /api/routines", feature: "routine_intent", keys: ["intent"], rows: true },
  { route: "GET /api/routines/{routine_id}", feature: "routine_intent", keys: ["intent"] },
  { route: "GET /api/health", feature: "health_embeddings", keys: ["embeddings"] },
  { route: "GET /api/settings/ai", feature: "ai_run_controls", keys: [...AI_RUN_CONTROLS] },
  {
    route: "GET /api/routines/{routine_id}",
    feature: "missed_fires",
    keys: ["missed_fires", "missed_fire_details"],
  },
  ...(["GET /api/executions", "GET /api/executions/{exec_id}"] as const).flatMap((route) =>
    EXECUTION_KEYS_SINCE.map(([feature, keys]) => ({
      route,
      feature,
      keys,
      rows: route === "GET /api/executions",
    })),
  ),
  {
    route: "POST /api/explorer/search",
    feature: "similarity_search",
    keys: ["sort", "ranked_count", "unranked_count", "model", "similarity_unavailable"],
  },
];

/** The answer as the release gave it: the same rows without the keys it did not have yet. */
export function olderAnswer(release: Release, route: string, reply: Reply): Reply {
  if (reply.status < 200 || reply.status > 299 || typeof reply.body !== "object" || reply.body === null) {
    return reply;
  }
  let body: unknown = reply.body;
  for (const rule of ABSENT_BEFORE) {
    if (rule.route !== route || has(release, rule.feature)) continue;
    const drop = (x: unknown): unknown => {
      if (!x || typeof x !== "object" || Array.isArray(x)) return x;
      const copy = { ...(x as Json) };
      for (const k of rule.keys) delete copy[k];
      return copy;
    };
    body = rule.rows && Array.isArray(body) ? body.map(drop) : drop(body);
  }
  return body === reply.body ? reply : { ...reply, body };
}
