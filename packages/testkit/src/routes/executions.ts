import { sourceInfo } from "../explain.js";
import type { JsonObject } from "../model.js";
import { type Ctx, detail, intParam, isReply, ok, queryValue, type Reply, type Routes } from "../reply.js";
import { executionRow } from "../views.js";
import { checkExpectedRuntime } from "./health.js";

export function listExecutions(ctx: Ctx): Reply {
  const limit = intParam(queryValue(ctx.query, "limit"), "limit", "query");
  if (isReply(limit)) return limit;
  const offset = intParam(queryValue(ctx.query, "offset"), "offset", "query");
  if (isReply(offset)) return offset;
  const lim = limit ?? 50;
  if (lim < 1 || lim > 500) {
    return detail(422, [
      {
        type: lim < 1 ? "greater_than_equal" : "less_than_equal",
        loc: ["query", "limit"],
        msg:
          lim < 1
            ? "Input should be greater than or equal to 1"
            : "Input should be less than or equal to 500",
        input: String(lim),
        ctx: lim < 1 ? { ge: 1 } : { le: 500 },
      },
    ]);
  }
  if ((offset ?? 0) < 0) {
    return detail(422, [
      {
        type: "greater_than_equal",
        loc: ["query", "offset"],
        msg: "Input should be greater than or equal to 0",
        input: String(offset),
        ctx: { ge: 0 },
      },
    ]);
  }
  const type = queryValue(ctx.query, "type");
  const rows = [...ctx.backend.store.executions.values()]
    .filter((e) => !type || e.execution_type === type)
    .sort((a, b) => (a.start_time < b.start_time ? 1 : a.start_time > b.start_time ? -1 : b.id - a.id));
  const start = Math.max(0, offset ?? 0);
  return ok(rows.slice(start, start + lim).map((e) => executionRow(ctx.backend, e, false)));
}

export function getExecution(ctx: Ctx): Reply {
  const refused = checkExpectedRuntime(ctx);
  if (refused) return refused;
  const id = intParam(ctx.params.exec_id, "exec_id", "path");
  if (isReply(id)) return id;
  const e = id === undefined ? undefined : ctx.backend.store.executions.get(id);
  if (!e) return detail(404, "Execution not found");
  return ok(executionRow(ctx.backend, e, true));
}

const MEANINGS = {
  cross:
    "Records identified as the same paper as a record from a different source. resmon flags these and keeps both rows — it does not remove either, so this is a count of duplicates found, not of duplicates deleted.",
  held: "Records this search returned that were already in the corpus from an earlier run. This has no equivalent in a PRISMA flow diagram, which describes a single search rather than a repeating one, and is reported separately for that reason.",
  discarded:
    "Records discarded because they lacked a title or a usable identifier. This is a data-quality discard, not a relevance judgement — nothing was excluded here on its subject matter.",
  added: "Records newly added to the corpus by this search, and therefore available for screening.",
};

const CAVEATS = [
  "resmon retains cross-source duplicates rather than removing them. The duplicate figure is a count of overlap found, and both copies remain in the corpus for you to resolve.",
  "This record covers one execution. A review that searched on several dates needs the record from each of them.",
  "resmon does not record screening decisions. Inclusion and exclusion happen outside it, and no figure here should be presented as a screening outcome.",
];

export function sourceName(slug: string): string {
  return sourceInfo(slug).name;
}

export function searchRecord(ctx: Ctx): Reply {
  const id = intParam(ctx.params.exec_id, "exec_id", "path");
  if (isReply(id)) return id;
  const e = id === undefined ? undefined : ctx.backend.store.executions.get(id);
  if (!e) return detail(404, `No execution with id ${ctx.params.exec_id}`);
  const routine = e.routine_id === null ? undefined : ctx.backend.store.routines.get(e.routine_id);
  const answered = e.sources.filter((s) => s.status === "ok").length;
  const failed = e.sources.filter((s) => s.status !== "ok").map((s) => s.source);
  const records = e.sources.reduce((n, s) => n + s.result_count, 0);
  const caveats = [...CAVEATS];
  if (!e.dedup) {
    caveats.unshift(
      "The cross-source duplicate count was not recorded for this run. It is absent, not zero — do not report it as a measured zero.",
    );
  }
  if (failed.length) {
    caveats.push(
      `${failed.length} of the ${e.sources.length} sources selected did not contribute records (${failed.join(", ")}). A search strategy that lists them as searched would be overstating its coverage.`,
    );
  }
  const order = e.selection ?? e.sources.map((s) => s.source);
  const bySource = new Map(e.sources.map((s) => [s.source, s]));
  const queriesAsSent: JsonObject[] | null =
    e.sources.length === 0 && !e.selection
      ? null
      : order.map((slug) => {
          const s = bySource.get(slug);
          const sent = s?.sent ?? [];
          return {
            source: slug,
            name: sourceName(slug),
            sent,
            omitted: 0,
            note: sent.length
              ? null
              : s
                ? "This source was not sent a query on this run."
                : "No request to this source was recorded.",
          };
        });
  return ok({
    record_type: "resmon_search_record",
    record_version: 1,
    generated_at: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
    software: { name: "resmon", version: "2.3.0", citation: "resmon 2.3.0" },
    search: {
      execution_id: e.id,
      execution_type: e.execution_type,
      run_at: e.start_time,
      completed_at: e.end_time,
      status: e.status,
      keywords: e.keywords ?? [],
      query_as_sent: e.query,
      queries_as_sent: queriesAsSent,
      date_from: e.date_from,
      date_to: e.date_to,
      max_results_per_source: e.max_results,
      routine_name: routine?.name ?? null,
      routine_schedule: routine?.schedule_cron ?? null,
      configuration_name: e.saved_configuration_name,
    },
    sources: e.sources.map((s) => ({
      source: s.source,
      records_identified: s.result_count,
      status: s.status,
      note:
        s.status === "ok"
          ? null
          : s.status === "skipped_missing_key"
            ? "Selected, but the API key it requires was not configured, so this source returned nothing. It did not contribute to the search."
            : `Selected, but the query failed: ${s.error_message ?? "no reason recorded"}. This source did not contribute to the search.`,
    })),
    identification: {
      records_identified: records,
      sources_searched: e.sources.length,
      sources_that_answered: answered,
      prisma: "Records identified from databases",
    },
    deduplication: {
      records_processed: e.dedup?.total ?? null,
      cross_source_duplicates: {
        count: e.dedup?.cross_source ?? null,
        recorded: e.dedup !== null,
        prisma: "Duplicate records removed before screening",
        meaning: MEANINGS.cross,
        not_recorded_reason: e.dedup
          ? null
          : "This run predates the version that stored this figure. It was computed at the time but not kept. Not recorded is not zero.",
      },
      already_held: { count: e.dedup?.duplicates ?? null, prisma: null, meaning: MEANINGS.held },
      discarded_unusable: {
        count: e.dedup?.invalid ?? null,
        prisma: "Records marked as ineligible by automation tools",
        meaning: MEANINGS.discarded,
      },
      records_added: { count: e.dedup?.new ?? null, prisma: "Records screened", meaning: MEANINGS.added },
    },
    caveats,
  });
}

/** The runs: their list, one run, its search record. */
export const executions: Routes = {
  "GET /api/executions": listExecutions,
  "GET /api/executions/{exec_id}": getExecution,
  "GET /api/executions/{exec_id}/search-record": searchRecord,
};
