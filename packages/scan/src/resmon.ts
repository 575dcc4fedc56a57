/**
 * The resmon routes the scan uses. Every request goes through the Call (the server's adapter: one
 * deadline, one error mapping); a failure arrives here as that mapped refusal, the contract's
 * ToolError, and is only sorted into what the scan does next. Answers are checked as the tools check theirs: a shape
 * that is not resmon's is upstream_error, never read as "nothing".
 */

import { ToolError } from "@resmon/mcp-contract";
import type { Call } from "./call.js";
import { csvRows } from "./csv-export.js";
import { statusOf } from "./errors.js";
import { type PaperRecord, recordFrom } from "./records.js";

type Row = Record<string, unknown>;

/** resmon answered, but not with what the route promises. */
function notResmonShape(stage: string, what: string, got: string): ToolError {
  return new ToolError(
    "upstream_error",
    `resmon's answer to ${what} is not the shape it documents (${got}), so it was not used; nothing was counted from it.`,
    { stage, reason: "unexpected_shape" },
  );
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

function asObject(value: unknown, stage: string, what: string): Row {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) return value as Row;
  throw notResmonShape(stage, what, `${kindOf(value)} instead of an object`);
}

/** A list of rows: anything but a list, or a row that is not an object, is not resmon's answer. */
function rowsOf(value: unknown, stage: string, what: string): Row[] {
  if (!Array.isArray(value)) throw notResmonShape(stage, what, `${kindOf(value)} instead of a list`);
  value.forEach((row, i) => {
    if (row === null || typeof row !== "object" || Array.isArray(row))
      throw notResmonShape(stage, what, `row ${i} is ${kindOf(row)}`);
  });
  return value as Row[];
}

function records(rows: Row[], fallbackId?: number): PaperRecord[] {
  return rows.map((r) => recordFrom(r, fallbackId)).filter((r): r is PaperRecord => r !== null);
}

export async function runtimeIdOf(call: Call): Promise<string | null> {
  const data = asObject(
    await call.runtimeRequest((c) => c.GET("/api/health")),
    "retrieve",
    "its health check",
  );
  const id = data.identity as Row | undefined;
  return typeof id?.runtime_id === "string" ? id.runtime_id : null;
}

export interface SweepBody {
  query: string;
  repositories: string[];
  max_results: number;
  date_from: string | null;
  date_to: string | null;
  request_id: string;
}

export type SweepOutcome =
  | { kind: "admitted"; execution_id: number }
  /** 429: resmon's run slots are full; `retryAfterS` is its Retry-After, when it sent one. */
  | { kind: "busy"; retryAfterS: number | undefined }
  /** The request may or may not have reached resmon: reconcile before sending again. */
  | { kind: "uncertain"; message: string }
  | { kind: "refused"; message: string }
  /** Nothing was started (resmon restarted, or what answered is not resmon): the call fails with this. */
  | { kind: "unreachable"; error: ToolError };

export async function submitSweep(call: Call, body: SweepBody): Promise<SweepOutcome> {
  const sent: Row = {
    query: body.query,
    repositories: body.repositories,
    max_results: body.max_results,
    ai_enabled: false,
    request_id: body.request_id,
  };
  if (body.date_from) sent.date_from = body.date_from;
  if (body.date_to) sent.date_to = body.date_to;
  let data: unknown;
  try {
    data = await call.request((c) => c.POST("/api/search/sweep", { body: sent as never }), "retrieve", true);
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    const status = statusOf(error);
    if (status === 429) {
      const after = error.detail.retry_after;
      return { kind: "busy", retryAfterS: typeof after === "number" && after >= 0 ? after : undefined };
    }
    if (error.code === "backend_unavailable") {
      // With an HTTP status (401 after a restart, a foreign 404) nothing was started; without one the
      // connection failed or timed out and the run may exist.
      return status === undefined
        ? { kind: "uncertain", message: error.message }
        : { kind: "unreachable", error };
    }
    return { kind: "refused", message: error.message };
  }
  const id = asObject(data, "retrieve", "the sweep").execution_id;
  if (typeof id === "number" && Number.isSafeInteger(id) && id > 0)
    return { kind: "admitted", execution_id: id };
  throw notResmonShape("retrieve", "the sweep", "no execution id");
}

/** GET /api/executions/{id}: its row, or null when resmon has no such run (404). */
export async function getExecution(call: Call, execId: number): Promise<Row | null> {
  let data: unknown;
  try {
    data = await call.request(
      (c) => c.GET("/api/executions/{exec_id}", { params: { path: { exec_id: execId } } }),
      "retrieve",
    );
  } catch (error) {
    if (error instanceof ToolError && error.code === "not_found") return null;
    throw error;
  }
  const what = `the progress of execution ${execId}`;
  const row = asObject(data, "retrieve", what);
  if (row.id !== undefined && row.id !== execId)
    throw notResmonShape("retrieve", what, `the row of execution ${String(row.id)}`);
  return row;
}

export async function listSweeps(call: Call): Promise<Row[]> {
  const data = await call.request(
    (c) => c.GET("/api/executions", { params: { query: { limit: 200, type: "deep_sweep" } } }),
    "retrieve",
  );
  return rowsOf(data, "retrieve", "the execution list");
}

export async function executionRecords(call: Call, execId: number): Promise<PaperRecord[]> {
  const data = await call.request(
    (c) =>
      c.GET("/api/executions/{exec_id}/references", {
        params: { path: { exec_id: execId }, query: { format: "json", include_ids: true } },
      }),
    "retrieve",
  );
  return records(rowsOf(data, "retrieve", `the rows of execution ${execId}`));
}

export interface CorpusPage {
  records: PaperRecord[];
  sort: string | null;
  similarity_unavailable: string | null;
}

/**
 * Up to `limit` corpus rows for one query, paging with the cursor; records the sort resmon served.
 * `similarity` false: no sort is sent (a resmon before 2.3 declares none).
 */
export async function corpusSearch(
  call: Call,
  body: { query: string; sources: string[]; date_from: string | null; date_to: string | null },
  limit: number,
  similarity = true,
): Promise<CorpusPage> {
  const out: PaperRecord[] = [];
  let cursor: string | null = null;
  let sort: string | null = null;
  let declined: string | null = null;
  do {
    const sent: Row = {
      query: body.query,
      limit: Math.min(limit - out.length, 100),
      sources: body.sources,
    };
    if (similarity) sent.sort = "similarity";
    if (body.date_from) sent.date_from = body.date_from;
    if (body.date_to) sent.date_to = body.date_to;
    if (cursor) sent.cursor = cursor;
    const answer = await call.request(
      (c) => c.POST("/api/explorer/search", { body: sent as never }),
      "retrieve",
    );
    const data = asObject(answer, "retrieve", "the corpus search");
    out.push(...records(rowsOf(data.results, "retrieve", "the corpus search")));
    sort ??= typeof data.sort === "string" ? data.sort : null;
    if (typeof data.similarity_unavailable === "string") declined ??= data.similarity_unavailable;
    cursor = typeof data.next_cursor === "string" && data.has_more !== false ? data.next_cursor : null;
  } while (cursor && out.length < limit);
  return { records: out.slice(0, limit), sort, similarity_unavailable: declined };
}

export type SimilarOutcome =
  /** `distances`: resmon's distance of each neighbour (by id) from the seed, where it gave one. */
  | { ok: true; records: PaperRecord[]; reason: string | null; distances: Record<string, number> }
  | { ok: false; error: ToolError };

export async function similarTo(call: Call, docId: number, k: number): Promise<SimilarOutcome> {
  let answer: unknown;
  try {
    answer = await call.request(
      (c) =>
        c.GET("/api/documents/{document_id}/similar", {
          params: { path: { document_id: docId }, query: { k } },
        }),
      "expand",
    );
  } catch (error) {
    if (error instanceof ToolError) return { ok: false, error };
    throw error;
  }
  const data = asObject(answer, "expand", "the similar-papers request");
  const rows =
    data.neighbours === undefined ? [] : rowsOf(data.neighbours, "expand", "the similar-papers request");
  const distances: Record<string, number> = {};
  for (const row of rows) {
    if (Number.isInteger(row.id) && typeof row.distance === "number" && Number.isFinite(row.distance))
      distances[String(row.id)] = row.distance;
  }
  return {
    ok: true,
    records: records(rows),
    reason: typeof data.reason === "string" ? data.reason : null,
    distances,
  };
}

export async function exportJson(call: Call, ids: number[]): Promise<PaperRecord[]> {
  const data = await call.request(
    (c) => c.POST("/api/export/references", { body: { document_ids: ids, format: "json" } }),
    "verify",
  );
  // Export rows carry no id; the caller matches them back (id -1 marks "not yet matched").
  return records(rowsOf(data, "verify", "the reference export"), -1);
}

/** resmon's record of these papers through its CSV export (a resmon without the JSON export: csv-export.ts). */
export async function exportCsv(call: Call, ids: number[]): Promise<PaperRecord[]> {
  const data = await call.request(
    (c) => c.POST("/api/export/references", { body: { document_ids: ids, format: "csv" } }),
    "verify",
  );
  const what = "the CSV reference export";
  if (typeof data !== "string") throw notResmonShape("verify", what, `${kindOf(data)} instead of text`);
  const rows = csvRows(data);
  if (rows === null) throw notResmonShape("verify", what, "text that is not CSV with resmon's header");
  // Like the JSON export's rows, these carry no id; the caller matches them back.
  return records(rows, -1);
}

export async function exportBibtex(call: Call, ids: number[]): Promise<string> {
  if (ids.length === 0) return "";
  const data = await call.request(
    (c) => c.POST("/api/export/references", { body: { document_ids: ids, format: "bibtex" } }),
    "emit",
  );
  if (typeof data !== "string")
    throw notResmonShape("emit", "the BibTeX export", `${kindOf(data)} instead of text`);
  return data;
}

export async function lifecycleOf(
  call: Call,
  docId: number,
): Promise<
  { finished: true; check_status: string | null; events: Row[] } | { finished: false; error: string }
> {
  let answer: unknown;
  try {
    answer = await call.request(
      (c) => c.GET("/api/documents/{doc_id}/lifecycle", { params: { path: { doc_id: docId } } }),
      "verify",
    );
  } catch (error) {
    // A check that did not finish is said as that (lifecycle_unchecked), never as "not retracted".
    if (error instanceof ToolError) return { finished: false, error: error.message };
    throw error;
  }
  const data = asObject(answer, "verify", `the lifecycle of document ${docId}`);
  return {
    finished: true,
    check_status: typeof data.check_status === "string" ? data.check_status : null,
    events: Array.isArray(data.events) ? (data.events as Row[]) : [],
  };
}
