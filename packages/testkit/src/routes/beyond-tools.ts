/**
 * Routes no tool reaches, served so the api-client's examples run against the stand-in: the
 * reading queue's list and a run's progress events, as a list and as resmon's Server-Sent Events
 * stream. Shapes follow resmon: the queue page is reading_queue.list_entries (2.3), the events are
 * the sweep engine's (execution_start, stage, repo_start, repo_done, complete), read from the run's
 * state at the moment of the request.
 */
import type { Backend } from "../backend.js";
import type { Execution, JsonObject } from "../model.js";
import { type Ctx, detail, type Handler, intParam, isReply, ok, queryValue, type Reply } from "../reply.js";
import { pyJson } from "../views.js";

const STATUSES = ["to_read", "read"] as const;
const MAX_PAGE_SIZE = 200;

interface QueueEntry {
  document_id: number;
  status: (typeof STATUSES)[number];
  saved_at: string;
  updated_at: string | null;
  read_at: string | null;
}

/** Each backend's queue: the fixture's three saved papers (the newest two still to read). */
const queues = new WeakMap<Backend, QueueEntry[]>();

function queueOf(backend: Backend): QueueEntry[] {
  let queue = queues.get(backend);
  if (queue === undefined) {
    const papers = backend.store.papers.slice(0, 3);
    queue = papers.map((p, i) => ({
      document_id: p.id,
      status: i === 2 ? "read" : "to_read",
      saved_at: `2026-11-2${i + 1} 09:00:00`,
      updated_at: i === 2 ? "2026-11-25 10:00:00" : null,
      read_at: i === 2 ? "2026-11-25 10:00:00" : null,
    }));
    queues.set(backend, queue);
  }
  return queue;
}

/** FastAPI-style 422 for a bound outside the page limits. */
function outOfRange(name: string, value: number, low: number, high: number): Reply {
  const below = value < low;
  return detail(422, [
    {
      type: below ? "greater_than_equal" : "less_than_equal",
      loc: ["query", name],
      msg: below
        ? `Input should be greater than or equal to ${low}`
        : `Input should be less than or equal to ${high}`,
      input: String(value),
      ctx: below ? { ge: low } : { le: high },
    },
  ]);
}

export function listReadingQueue(ctx: Ctx): Reply {
  const limit = intParam(queryValue(ctx.query, "limit"), "limit", "query");
  if (isReply(limit)) return limit;
  const offset = intParam(queryValue(ctx.query, "offset"), "offset", "query");
  if (isReply(offset)) return offset;
  const lim = limit ?? 50;
  if (lim < 1 || lim > MAX_PAGE_SIZE) return outOfRange("limit", lim, 1, MAX_PAGE_SIZE);
  const off = offset ?? 0;
  if (off < 0) return outOfRange("offset", off, 0, Number.MAX_SAFE_INTEGER);
  const status = queryValue(ctx.query, "status") ?? null;
  if (status !== null && !(STATUSES as readonly string[]).includes(status)) {
    return detail(400, `Unknown reading status '${status}'. Expected one of: ${STATUSES.join(", ")}`);
  }
  const queue = queueOf(ctx.backend);
  const chosen = queue
    .filter((e) => status === null || e.status === status)
    .sort((a, b) =>
      a.saved_at === b.saved_at ? b.document_id - a.document_id : a.saved_at < b.saved_at ? 1 : -1,
    );
  const entries = chosen.slice(off, off + lim).map((e) => {
    const p = ctx.backend.store.paperById.get(e.document_id);
    const document: JsonObject = p
      ? {
          id: p.id,
          source_repository: p.source_repository,
          external_id: p.external_id,
          doi: p.doi,
          title: p.title,
          authors: p.authors,
          abstract: p.abstract,
          publication_date: p.publication_date,
          url: p.url,
          categories: p.categories,
          first_seen_at: p.first_seen_at,
        }
      : { id: e.document_id };
    return { ...e, document };
  });
  const toRead = queue.filter((e) => e.status === "to_read").length;
  return ok({
    entries,
    total: chosen.length,
    limit: lim,
    offset: off,
    status,
    counts: { to_read: toRead, read: queue.length - toRead, all: queue.length },
  });
}

/** The events a run has emitted so far, as resmon's sweep engine emits them. */
function eventsOf(e: Execution): JsonObject[] {
  const asked = e.parameters?.repositories;
  const repositories = Array.isArray(asked) ? asked.map(String) : e.sources.map((s) => s.source);
  const at = e.start_time;
  const events: JsonObject[] = [
    {
      type: "execution_start",
      execution_id: e.id,
      execution_type: e.execution_type,
      repositories,
      total_repos: repositories.length,
      timestamp: at,
    },
    { type: "stage", stage: "querying", message: "Querying repositories...", timestamp: at },
  ];
  repositories.forEach((repository, i) => {
    events.push({
      type: "repo_start",
      repository,
      index: i + 1,
      total_repos: repositories.length,
      timestamp: at,
    });
  });
  if (e.status === "running") return events;
  const end = e.end_time ?? at;
  for (const s of e.sources) {
    events.push({ type: "repo_done", repository: s.source, result_count: s.result_count, timestamp: end });
  }
  if (e.status === "cancelled") events.push({ type: "cancelled", timestamp: end });
  if (e.status === "failed" && e.error_message) {
    events.push({ type: "error", error: e.error_message, timestamp: end });
  }
  events.push({
    type: "complete",
    status: e.status,
    result_count: e.result_count,
    new_count: e.new_result_count,
    elapsed: Math.max(0, (Date.parse(end) - Date.parse(at)) / 1000),
    timestamp: end,
  });
  return events;
}

export function progressEvents(ctx: Ctx): Reply {
  const id = intParam(ctx.params.exec_id, "exec_id", "path");
  if (isReply(id)) return id;
  const e = id === undefined ? undefined : ctx.backend.store.executions.get(id);
  if (!e) return detail(404, "Execution not found");
  return {
    status: 200,
    body: eventsOf(e),
    headers: { "cache-control": "no-store, no-cache, must-revalidate" },
  };
}

/** How often resmon's stream looks again at a running run, and writes its heartbeat (resmon.py: 0.3 s). */
const STREAM_POLL_MS = 300;

/** One event as resmon's stream frames it: its index as the id, `event: progress`, json.dumps data. */
function sseFrame(index: number, event: JsonObject): string {
  return `id: ${index}\nevent: progress\ndata: ${pyJson(event)}\n\n`;
}

const pause = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms).unref?.();
  });

/**
 * resmon's `stream_progress` (resmon.py at b91975a, which 2.3 still serves): the run's events from
 * index `last_event_id` on; a finished run's as one batch, then the end; a running run's as they
 * come, each pass followed by a `: heartbeat` comment, until the run ends.
 */
export function progressStream(ctx: Ctx): Reply {
  const id = intParam(ctx.params.exec_id, "exec_id", "path");
  if (isReply(id)) return id;
  const from = intParam(queryValue(ctx.query, "last_event_id"), "last_event_id", "query");
  if (isReply(from)) return from;
  const backend = ctx.backend;
  if (id === undefined || !backend.store.executions.get(id)) return detail(404, "Execution not found");
  const execId: number = id;
  const start: number = from ?? 0;
  async function* frames(): AsyncGenerator<string> {
    let cursor = start;
    for (;;) {
      const run = backend.store.executions.get(execId);
      const events = run ? eventsOf(run) : [];
      for (; cursor < events.length; cursor += 1) yield sseFrame(cursor, events[cursor] as JsonObject);
      if (run?.status !== "running") return;
      yield ": heartbeat\n\n";
      await pause(STREAM_POLL_MS);
    }
  }
  return {
    status: 200,
    body: null,
    contentType: "text/event-stream; charset=utf-8",
    headers: { "cache-control": "no-cache", connection: "keep-alive", "x-accel-buffering": "no" },
    stream: frames(),
  };
}

/** The routes by `METHOD path`; what resmon declares for them comes from the API description. */
export const BEYOND_TOOLS: Readonly<Record<string, Handler>> = {
  "GET /api/reading-queue": listReadingQueue,
  "GET /api/executions/{exec_id}/progress/events": progressEvents,
  "GET /api/executions/{exec_id}/progress/stream": progressStream,
};
