import { type Backend, nowUtc } from "./backend.js";
import { steeredOutcome } from "./coverage.js";
import type { Execution, JsonObject, Paper, SourceOutcome } from "./model.js";
import { catalogRows } from "./routes/catalog.js";
import { byNewest } from "./views.js";

// The sources a run can ask are exactly the ones the catalog route serves.
const KNOWN_SOURCES = new Set(catalogRows().map((row) => String(row.slug)));
const DATE_RANGE_SOURCES = new Set(["biorxiv", "medrxiv"]);

export interface RunRequest {
  executionType: string;
  routineId: number | null;
  query: string;
  repositories: string[];
  dateFrom: string | null;
  dateTo: string | null;
  maxResults: number;
}

/** What a source that failed under failSweeps("run_failed") recorded (resmon's wording for a 503 upstream). */
export const FAILED_SOURCE_MESSAGE = "Upstream returned HTTP 503";

/**
 * Start an execution that holds an admission slot and ends `runDurationMs` later (or, when
 * `pinned`, only when freeSlots() ends it; while runs are held, at releaseRuns()).
 */
export function startExecution(
  backend: Backend,
  req: RunRequest,
  opts: { pinned?: boolean } = {},
): Execution {
  const id = backend.store.next.execution++;
  const now = nowUtc();
  const parameters: JsonObject = { query: req.query, repositories: req.repositories };
  if (req.dateFrom) parameters.date_from = req.dateFrom;
  if (req.dateTo) parameters.date_to = req.dateTo;
  const ranged = req.repositories.filter((r) => DATE_RANGE_SOURCES.has(r));
  if (!req.dateFrom && ranged.length) {
    const before = req.dateTo ? "end_date" : "run";
    const end = req.dateTo ?? now.slice(0, 10);
    const start = new Date(Date.parse(`${end}T00:00:00Z`) - 3 * 86400000).toISOString().slice(0, 10);
    const starts: JsonObject = {};
    for (const r of ranged) {
      starts[r] = {
        date_from: start,
        days: 3,
        before,
        sentence: `No start date was given, so resmon asked ${r === "biorxiv" ? "bioRxiv" : "medRxiv"} for the 3 days before the ${before === "run" ? "run started" : "end date"} (from ${start}).`,
      };
    }
    parameters.default_starts = starts;
  }
  const e: Execution = {
    id,
    execution_type: req.executionType,
    routine_id: req.routineId,
    saved_configuration_id: null,
    saved_configuration_name: null,
    parameters,
    start_time: now.replace("+00:00", "Z").replace(/\.\d+Z$/, "Z"),
    end_time: null,
    status: "running",
    result_count: 0,
    new_result_count: 0,
    log_path: `<state-root>/reports/logs/log_${req.executionType}_${id}.txt`,
    result_path: null,
    error_message: null,
    progress_events: JSON.stringify([
      {
        type: "execution_start",
        execution_id: id,
        execution_type: req.executionType,
        repositories: req.repositories,
      },
    ]),
    current_stage: "querying sources",
    owner_pid: process.pid,
    owner_runtime_id: backend.runtimeId,
    last_seen_at_utc: now,
    interrupted_reason: null,
    restarted_from: null,
    cancel_reason: null,
    dedup: null,
    request_id: null,
    selection: [...new Set(req.repositories)],
    sources: [],
    document_ids: [],
    new_document_ids: [],
    query: req.query,
    keywords: [req.query],
    date_from: req.dateFrom,
    date_to: req.dateTo,
    max_results: req.maxResults,
  };
  backend.store.executions.set(id, e);
  backend.active.add(id);
  if (req.routineId !== null) backend.claims.set(req.routineId, id);
  const controls = backend.runControls;
  if (opts.pinned) {
    controls.pinned.add(id);
  } else {
    if (req.executionType === "deep_sweep" && controls.failNext > 0) {
      controls.failNext--;
      controls.doomed.add(id);
    }
    backend.later(backend.admission.runDurationMs, () => {
      if (backend.runControls.holding) backend.runControls.due.add(id);
      else finishExecution(backend, e);
    });
  }
  return e;
}

/** Stop holding runs, and end every run whose time came while they were held. */
export function releaseRuns(backend: Backend): void {
  const controls = backend.runControls;
  controls.holding = false;
  const due = [...controls.due];
  controls.due.clear();
  for (const id of due) {
    const e = backend.store.executions.get(id);
    if (e) finishExecution(backend, e);
  }
}

/** Start runs that take `n` admission slots (default: every free one) until freeSlots(). */
export function fillSlots(backend: Backend, n?: number): number[] {
  const free = Math.max(0, backend.admission.maxConcurrent - backend.active.size);
  const count = n ?? free;
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const e = startExecution(
      backend,
      {
        executionType: "deep_sweep",
        routineId: null,
        query: "another client's sweep",
        repositories: ["arxiv"],
        dateFrom: null,
        dateTo: null,
        maxResults: 100,
      },
      { pinned: true },
    );
    ids.push(e.id);
  }
  return ids;
}

/** End the runs fillSlots started (completed), which lets queued routine fires start. */
export function freeSlots(backend: Backend): void {
  const pinned = [...backend.runControls.pinned];
  backend.runControls.pinned.clear();
  for (const id of pinned) {
    const e = backend.store.executions.get(id);
    if (e) finishExecution(backend, e);
  }
}

function finishExecution(backend: Backend, e: Execution): void {
  if (e.status !== "running") return;
  const doomed = backend.runControls.doomed.delete(e.id);
  const words = (e.query ?? "").toLowerCase().split(/\s+/).filter(Boolean);
  const recorded = nowUtc().slice(0, 19).replace("T", " ");
  const found: number[] = [];
  const modes = doomed ? new Map() : backend.sourceModes.take(e.selection ?? []);
  const outcomes: SourceOutcome[] = (e.selection ?? []).flatMap((source): SourceOutcome[] => {
    const mode = modes.get(source);
    if (mode !== undefined && mode !== "answer") {
      const steered = steeredOutcome(source, mode, recorded, [e.query ?? ""]);
      return steered ? [steered] : [];
    }
    /** A source that did not answer: no count, no zero-reason, resmon's error text. */
    const failed = (error_message: string, sent: string[]): SourceOutcome => ({
      source,
      status: "error",
      result_count: 0,
      zero_reason: null,
      zero_detail: null,
      in_part: false,
      error_message,
      recorded_at: recorded,
      sent,
    });
    if (doomed) return [failed(FAILED_SOURCE_MESSAGE, [e.query ?? ""])];
    if (!KNOWN_SOURCES.has(source)) return [failed(`Unknown repository: ${source}`, [])];
    const inWindow = (p: Paper) =>
      (!e.date_from || (p.publication_date ?? "") >= e.date_from) &&
      (!e.date_to || (p.publication_date ?? "") <= e.date_to);
    const max = e.max_results ?? 100;
    // A records file ranks by BM25 (corpus.ts); the seed matches every word in the title, newest first.
    const hits = backend.corpus
      ? backend.corpus.sweep(e.query ?? "", source, max, inWindow)
      : backend.store.papers
          .filter(
            (p) => p.source_repository === source && words.every((w) => p.title.toLowerCase().includes(w)),
          )
          .filter(inWindow)
          .sort(byNewest)
          .slice(0, max);
    found.push(...hits.map((p) => p.id));
    const ranged = DATE_RANGE_SOURCES.has(source);
    return [
      {
        source,
        status: "ok",
        result_count: hits.length,
        // The source answered; a query that matched nothing is resmon's answered zero.
        zero_reason: hits.length ? null : "answered_empty",
        zero_detail: null,
        in_part: false,
        error_message: null,
        recorded_at: recorded,
        sent: [
          ranged
            ? `details/${source}/${e.date_from ?? "default-start"}/${e.date_to ?? "run"}`
            : (e.query ?? ""),
        ],
      },
    ];
  });
  e.sources = outcomes;
  e.document_ids = [...new Set(found)];
  e.new_document_ids = [];
  e.result_count = e.document_ids.length;
  e.new_result_count = 0;
  e.dedup = {
    total: found.length,
    new: 0,
    duplicates: found.length - e.document_ids.length,
    invalid: 0,
    cross_source: found.length - e.document_ids.length,
  };
  // A run fails only when every source it recorded failed; sources with no recorded outcome do not fail it.
  e.status = outcomes.length === 0 || outcomes.some((o) => o.status === "ok") ? "completed" : "failed";
  if (e.status === "failed")
    e.error_message = doomed ? FAILED_SOURCE_MESSAGE : "No selected source answered.";
  e.end_time = nowUtc();
  e.current_stage = "finalizing";
  e.last_seen_at_utc = e.end_time;
  e.result_path = `<state-root>/reports/markdowns/report_${e.execution_type}_${e.id}.md`;
  release(backend, e);
}

/** Free the slot and the routine's claim, then start the oldest queued fire if there is room. */
function release(backend: Backend, e: Execution): void {
  backend.active.delete(e.id);
  if (e.routine_id !== null && backend.claims.get(e.routine_id) === e.id) backend.claims.delete(e.routine_id);
  while (backend.queue.length && backend.active.size < backend.admission.maxConcurrent) {
    const routineId = backend.queue.shift();
    if (routineId === undefined) break;
    if (backend.claims.has(routineId)) continue;
    const routine = backend.store.routines.get(routineId);
    if (routine) startExecution(backend, routineRunRequest(routine.id, routine.parameters));
  }
}

export function routineRunRequest(routineId: number, parameters: JsonObject): RunRequest {
  const repos = Array.isArray(parameters.repositories) ? parameters.repositories.map(String) : [];
  return {
    executionType: "automated_sweep",
    routineId,
    query: typeof parameters.query === "string" ? parameters.query : "",
    repositories: repos,
    dateFrom: null,
    dateTo: null,
    maxResults: 100,
  };
}
