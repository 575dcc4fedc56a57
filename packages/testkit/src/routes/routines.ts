import type { Backend } from "../backend.js";
import type { JsonObject, Paper, Routine } from "../model.js";
import { type Ctx, detail, intParam, isReply, ok, queryValue, type Reply, type Routes } from "../reply.js";
import { routineRunRequest, startExecution } from "../runner.js";
import { distance, EMBEDDING_MODEL, embed } from "../vectors.js";
import { routineRow } from "../views.js";

function findRoutine(ctx: Ctx): Routine | Reply {
  const id = intParam(ctx.params.routine_id, "routine_id", "path");
  if (isReply(id)) return id;
  const r = id === undefined ? undefined : ctx.backend.store.routines.get(id);
  return r ?? detail(404, "Routine not found");
}

export function listRoutines(ctx: Ctx): Reply {
  const rows = [...ctx.backend.store.routines.values()].sort((a, b) =>
    a.created_at < b.created_at ? 1 : -1,
  );
  return ok(rows.map((r) => routineRow(ctx.backend, r, false)));
}

export function getRoutine(ctx: Ctx): Reply {
  const r = findRoutine(ctx);
  return isReply(r) ? r : ok(routineRow(ctx.backend, r, true));
}

export function deliveries(ctx: Ctx): Reply {
  const r = findRoutine(ctx);
  if (isReply(r)) return r;
  const limit = intParam(queryValue(ctx.query, "limit"), "limit", "query");
  if (isReply(limit)) return limit;
  const list = [...r.deliveries].sort((a, b) => (a.queued_at_utc < b.queued_at_utc ? 1 : -1));
  const targets: Record<string, number> = {};
  for (const t of r.targets) if (t.enabled) targets[t.channel] = (targets[t.channel] ?? 0) + 1;
  const last = list[0];
  return ok({
    routine_id: r.id,
    deliveries: list
      .slice(0, Math.max(0, limit ?? 100))
      .map((d) => ({ ...d, owner_pid: null, owner_runtime_id: null })),
    summary: {
      targets,
      enabled_target_count: Object.values(targets).reduce((a, b) => a + b, 0),
      awaiting_review: list.filter((d) => d.state === "awaiting_review").length,
      last: last
        ? {
            id: last.id,
            execution_id: last.execution_id,
            channel: last.channel,
            state: last.state,
            attempts: last.attempts,
            last_error: last.last_error,
            delivered_at_utc: last.delivered_at_utc,
          }
        : null,
    },
  });
}

const CANNOT_SEE =
  "resmon can only compare against papers it already holds. A paper missing from this list may simply never have been collected by any routine.";
const MIN_FOR_DISTRIBUTION = 12;
const MAX_LIST = 25;

function median(sorted: number[]): number {
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** Python's statistics.quantiles(n=4)[2] (exclusive method). */
function thirdQuartile(sorted: number[]): number {
  const m = sorted.length;
  const j = Math.floor(((m + 1) * 3) / 4);
  const delta = (m + 1) * 3 - j * 4;
  const lo = sorted[j - 1] ?? sorted[0] ?? 0;
  const hi = sorted[j] ?? sorted[m - 1] ?? 0;
  return (lo * (4 - delta) + hi * delta) / 4;
}

function round4(x: number): number {
  return Math.round(x * 10000) / 10000;
}

function auditRows(pairs: { p: Paper; d: number }[]): JsonObject[] {
  return pairs.map(({ p, d }) => ({
    id: p.id,
    distance: round4(d),
    title: p.title,
    source_repository: p.source_repository,
    publication_date: p.publication_date,
    doi: p.doi,
    url: p.url,
  }));
}

/** The coverage audit: the routine's results against its intent (or its keywords, and it says which). */
export function coverageAudit(backend: Backend, r: Routine): JsonObject {
  const stated = (r.intent ?? "").trim();
  const query = typeof r.parameters.query === "string" ? r.parameters.query : "";
  const intent = stated || query;
  const payload: JsonObject = {
    routine_id: r.id,
    routine_name: r.name,
    intent,
    intent_source: stated ? "stated" : "keywords",
    model: EMBEDDING_MODEL,
    cannot_see: CANNOT_SEE,
    results: 0,
    results_embedded: 0,
    off_target: [],
    off_target_total: 0,
    missed_in_corpus: [],
    missed_in_corpus_total: 0,
    missed_in_corpus_total_is_lower_bound: false,
    distribution: null,
    reason: null,
  };
  if (backend.embeddingState === "no_model") {
    payload.model = null;
    payload.reason =
      "Nothing is embedded yet, so resmon cannot compare this routine's results against its intent. Set up an embedding model in Settings → AI → Embeddings.";
    return payload;
  }
  const returned = new Set<number>();
  for (const e of backend.store.executions.values())
    if (e.routine_id === r.id) for (const d of e.document_ids) returned.add(d);
  payload.results = returned.size;
  if (returned.size === 0) {
    payload.reason =
      "This routine has not returned any papers yet, so there is nothing to compare against its intent.";
    return payload;
  }
  if (backend.embeddingState === "extension_unavailable") {
    payload.reason = "The coverage audit needs the vector index, and this build cannot load it.";
    return payload;
  }
  const target = embed(intent);
  const vec = (p: Paper) => distance(target, backend.vectorOf(p));
  const ranked = [...returned]
    .map((id) => backend.store.paperById.get(id))
    .filter((p): p is Paper => p !== undefined && backend.isEmbedded(p.id))
    .map((p) => ({ p, d: vec(p) }))
    .sort((a, b) => a.d - b.d);
  payload.results_embedded = ranked.length;
  if (ranked.length === 0) {
    payload.reason =
      "None of this routine's papers are embedded yet, so resmon cannot say how close they are to its intent. Run the backfill in Settings → AI.";
    return payload;
  }
  const distances = ranked.map((x) => x.d);
  if (distances.length < MIN_FOR_DISTRIBUTION) {
    payload.reason = `Only ${distances.length} of this routine's papers are embedded. resmon needs at least ${MIN_FOR_DISTRIBUTION} before a distribution means anything, so no off-target cutoff is drawn.`;
  } else {
    const cutoff = thirdQuartile(distances);
    payload.distribution = {
      count: distances.length,
      min: round4(distances[0] ?? 0),
      median: round4(median(distances)),
      p75_cutoff: round4(cutoff),
      max: round4(distances[distances.length - 1] ?? 0),
    };
    const far = ranked.filter((x) => x.d > cutoff);
    payload.off_target = auditRows(far.slice(-MAX_LIST).reverse());
    payload.off_target_total = far.length;
  }
  const reference = median(distances);
  const budget = MAX_LIST + returned.size + 50;
  const neighbours = backend.store.papers
    .filter((p) => backend.isEmbedded(p.id))
    .map((p) => ({ p, d: vec(p) }))
    .sort((a, b) => a.d - b.d || a.p.id - b.p.id)
    .slice(0, budget);
  const candidates = neighbours.filter((x) => !returned.has(x.p.id) && x.d <= reference);
  payload.missed_in_corpus = auditRows(candidates.slice(0, MAX_LIST));
  payload.missed_in_corpus_total = candidates.length;
  const furthest = neighbours[neighbours.length - 1];
  payload.missed_in_corpus_total_is_lower_bound =
    neighbours.length >= budget && furthest !== undefined && furthest.d <= reference;
  payload.missed_reference_distance = round4(reference);
  return payload;
}

export function coverage(ctx: Ctx): Reply {
  const id = intParam(ctx.params.routine_id, "routine_id", "path");
  if (isReply(id)) return id;
  const r = id === undefined ? undefined : ctx.backend.store.routines.get(id);
  if (!r) return detail(404, `No routine with id ${ctx.params.routine_id}.`);
  return ok(coverageAudit(ctx.backend, r));
}

function setActive(ctx: Ctx, active: boolean): Reply {
  const r = findRoutine(ctx);
  if (isReply(r)) return r;
  r.is_active = active;
  return ok({ id: r.id, is_active: active });
}

export const activate = (ctx: Ctx): Reply => setActive(ctx, true);
export const deactivate = (ctx: Ctx): Reply => setActive(ctx, false);

export function runRoutine(ctx: Ctx): Reply {
  const r = findRoutine(ctx);
  if (isReply(r)) return r;
  const b = ctx.backend;
  const holder = b.claims.get(r.id);
  if (holder !== undefined) {
    return detail(409, `Routine ${r.id} is already running as execution ${holder}.`, {
      "x-resmon-conflict": "routine_already_running",
      "x-resmon-execution-id": String(holder),
    });
  }
  const wasInactive = !r.is_active;
  if (b.active.size >= b.admission.maxConcurrent) {
    if (b.queue.length >= b.admission.queueLimit) {
      return detail(
        409,
        `resmon's run queue is full (${b.queue.length} runs waiting). Try again when a run finishes.`,
        {
          "x-resmon-conflict": "queue_full",
        },
      );
    }
    b.queue.push(r.id);
    return ok(
      {
        execution_id: null,
        routine_id: r.id,
        queued: true,
        queue_position: b.queue.length,
        was_inactive: wasInactive,
        detail: `resmon is already running as many runs as it allows, so this run is queued at position ${b.queue.length}. It starts on its own when a slot frees; there is nothing more to do.`,
      },
      202,
    );
  }
  let ranLate = 0;
  for (const m of r.missed) {
    if (m.disposition === "recorded") {
      m.disposition = "ran_late";
      ranLate++;
    }
  }
  const e = startExecution(b, routineRunRequest(r.id, r.parameters));
  r.last_executed_at = e.start_time;
  return ok({
    execution_id: e.id,
    routine_id: r.id,
    was_inactive: wasInactive,
    missed_fires_marked_ran_late: ranLate,
    detail: wasInactive
      ? "This routine is not scheduled; it was run once because you asked for it."
      : "The routine was started now, as well as on its schedule.",
  });
}

function missing(body: Record<string, unknown>, required: readonly string[]): Reply | null {
  const errors = required
    .filter((f) => body[f] === undefined)
    .map((f) => ({ type: "missing", loc: ["body", f], msg: "Field required", input: body }));
  return errors.length ? detail(422, errors) : null;
}

export function createRoutine(ctx: Ctx): Reply {
  const body = (ctx.body ?? {}) as Record<string, unknown>;
  const refused = missing(body, ["name", "schedule_cron", "parameters"]);
  if (refused) return refused;
  const params = body.parameters;
  if (typeof params !== "object" || params === null || Array.isArray(params)) {
    return detail(422, [
      {
        type: "dict_type",
        loc: ["body", "parameters"],
        msg: "Input should be a valid dictionary",
        input: params,
      },
    ]);
  }
  const parameters = params as JsonObject;
  const entity = parameters.entity as JsonObject | undefined;
  let entityWarning: string | null = null;
  if (entity !== undefined) {
    const profile =
      typeof entity?.profile_id === "number" ? ctx.backend.store.profiles.get(entity.profile_id) : undefined;
    if (!profile) return detail(400, "entity.profile_id does not name a watch profile.");
    if (entity.mode !== "new_papers" && entity.mode !== "retractions")
      return detail(400, "entity.mode must be 'new_papers' or 'retractions'.");
    if (profile.kind !== "person") return detail(400, "Only a person profile can be followed by a routine.");
    const repos = Array.isArray(parameters.repositories) ? parameters.repositories.map(String) : [];
    const authorCapable = new Set([
      "openalex",
      "crossref",
      "pubmed",
      "europepmc",
      "semantic_scholar",
      "arxiv",
    ]);
    if (!repos.some((x) => authorCapable.has(x)))
      entityWarning =
        "None of these sources can be asked about an author, so this routine will find nothing.";
  }
  const b = ctx.backend;
  const id = b.store.next.routine++;
  const now = new Date().toISOString().slice(0, 19).replace("T", " ");
  const flag = (k: string, dflt: boolean) => (typeof body[k] === "boolean" ? (body[k] as boolean) : dflt);
  b.store.routines.set(id, {
    id,
    name: String(body.name),
    schedule_cron: String(body.schedule_cron),
    parameters,
    is_active: flag("is_active", true),
    email_enabled: flag("email_enabled", false),
    email_ai_summary_enabled: flag("email_ai_summary_enabled", false),
    ai_enabled: flag("ai_enabled", false),
    notify_on_complete: flag("notify_on_complete", false),
    ai_settings:
      body.ai_settings === undefined || body.ai_settings === null ? null : JSON.stringify(body.ai_settings),
    storage_settings:
      body.storage_settings === undefined || body.storage_settings === null
        ? null
        : JSON.stringify(body.storage_settings),
    intent: typeof body.intent === "string" && body.intent.trim() ? body.intent : null,
    created_at: now,
    updated_at: now,
    last_executed_at: null,
    missed: [],
    targets: [],
    deliveries: [],
  });
  const reply: JsonObject = { id, name: String(body.name) };
  if (entityWarning) reply.entity_warning = entityWarning;
  return ok(reply, 201);
}

export function sweep(ctx: Ctx): Reply {
  const body = (ctx.body ?? {}) as Record<string, unknown>;
  const refused = missing(body, ["repositories", "query"]);
  if (refused) return refused;
  const b = ctx.backend;
  if (b.active.size >= b.admission.maxConcurrent) {
    return detail(
      429,
      `resmon is already running ${b.active.size} searches, which is its limit. Try again when one finishes.`,
      { "retry-after": "5" },
    );
  }
  const repos = Array.isArray(body.repositories) ? body.repositories.map(String) : [];
  const e = startExecution(b, {
    executionType: "deep_sweep",
    routineId: null,
    query: String(body.query),
    repositories: repos,
    dateFrom: typeof body.date_from === "string" ? body.date_from : null,
    dateTo: typeof body.date_to === "string" ? body.date_to : null,
    maxResults: typeof body.max_results === "number" ? body.max_results : 100,
  });
  return ok({ execution_id: e.id });
}

/** Routines: list, one, deliveries, coverage, create, run, (de)activate; and the one-off sweep. */
export const routines: Routes = {
  "GET /api/routines": listRoutines,
  "GET /api/routines/{routine_id}": getRoutine,
  "GET /api/routines/{routine_id}/deliveries": deliveries,
  "GET /api/routines/{routine_id}/coverage": coverage,
  "POST /api/search/sweep": sweep,
  "POST /api/routines": createRoutine,
  "POST /api/routines/{routine_id}/run": runRoutine,
  "POST /api/routines/{routine_id}/activate": activate,
  "POST /api/routines/{routine_id}/deactivate": deactivate,
};
