/** The resmon routes the scan uses, over the typed client; failures become ScanErrors or plain outcomes. */
import type { ApiError, ResmonClient } from "@resmon/api-client";
import { ScanError } from "./errors.js";
import { type PaperRecord, recordFrom } from "./records.js";

type Row = Record<string, unknown>;

/** A failed request as the contract's error: unreachable or restarted (401) → backend_unavailable, else upstream_error. */
export function failure(error: ApiError, stage: string, what: string): ScanError {
  const status = error.kind === "http" || error.kind === "malformed" ? error.status : undefined;
  return new ScanError(
    unreachable(error) ? "backend_unavailable" : "upstream_error",
    `resmon did not answer ${what}: ${error.message}`,
    { stage, ...(status !== undefined ? { status } : {}) },
  );
}

export async function runtimeIdOf(client: ResmonClient): Promise<string | null> {
  const res = await client.GET("/api/health");
  if (!res.ok) throw failure(res.error, "retrieve", "its health check");
  const id = (res.data as Row).identity as Row | undefined;
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
  | { kind: "busy"; retryAfterMs: number }
  /** The request may or may not have reached resmon: reconcile before sending again. */
  | { kind: "uncertain"; message: string }
  | { kind: "refused"; message: string }
  | { kind: "unreachable"; error: ApiError };

export async function submitSweep(client: ResmonClient, body: SweepBody): Promise<SweepOutcome> {
  const sent: Row = {
    query: body.query,
    repositories: body.repositories,
    max_results: body.max_results,
    ai_enabled: false,
    request_id: body.request_id,
  };
  if (body.date_from) sent.date_from = body.date_from;
  if (body.date_to) sent.date_to = body.date_to;
  const res = await client.POST("/api/search/sweep", { body: sent as never });
  if (res.ok) {
    const id = (res.data as Row).execution_id;
    if (typeof id === "number") return { kind: "admitted", execution_id: id };
    return { kind: "refused", message: "resmon admitted the sweep without an execution id." };
  }
  const e = res.error;
  if (e.kind === "http" && e.status === 429)
    return { kind: "busy", retryAfterMs: (e.retryAfter ?? 2) * 1000 };
  // Refused by the guard (the backend restarted, so its token changed): nothing started.
  if (e.kind === "http" && e.status === 401) return { kind: "unreachable", error: e };
  if (e.kind === "transport" || e.kind === "timeout") return { kind: "uncertain", message: e.message };
  return { kind: "refused", message: e.message };
}

export async function getExecution(
  client: ResmonClient,
  execId: number,
): Promise<{ ok: true; row: Row } | { ok: false; error: ApiError }> {
  const res = await client.GET("/api/executions/{exec_id}", { params: { path: { exec_id: execId } } });
  return res.ok ? { ok: true, row: res.data as unknown as Row } : { ok: false, error: res.error };
}

export async function listSweeps(client: ResmonClient): Promise<Row[]> {
  const res = await client.GET("/api/executions", { params: { query: { limit: 200, type: "deep_sweep" } } });
  if (!res.ok) throw failure(res.error, "retrieve", "the execution list");
  return (res.data as unknown as Row[]) ?? [];
}

function records(rows: unknown): PaperRecord[] {
  if (!Array.isArray(rows)) return [];
  return rows.map((r) => recordFrom(r as Row)).filter((r): r is PaperRecord => r !== null);
}

export async function executionRecords(client: ResmonClient, execId: number): Promise<PaperRecord[]> {
  const res = await client.GET("/api/executions/{exec_id}/references", {
    params: { path: { exec_id: execId }, query: { format: "json", include_ids: true } },
  });
  if (!res.ok) throw failure(res.error, "retrieve", `the rows of execution ${execId}`);
  return records(res.data);
}

export interface CorpusPage {
  records: PaperRecord[];
  sort: string | null;
  similarity_unavailable: string | null;
}

/** Up to `limit` corpus rows for one query, paging with the cursor; records the sort resmon served. */
export async function corpusSearch(
  client: ResmonClient,
  body: { query: string; sources: string[]; date_from: string | null; date_to: string | null },
  limit: number,
): Promise<CorpusPage> {
  const out: PaperRecord[] = [];
  let cursor: string | null = null;
  let sort: string | null = null;
  let declined: string | null = null;
  do {
    const sent: Row = {
      query: body.query,
      limit: Math.min(limit - out.length, 100),
      sort: "similarity",
      sources: body.sources,
    };
    if (body.date_from) sent.date_from = body.date_from;
    if (body.date_to) sent.date_to = body.date_to;
    if (cursor) sent.cursor = cursor;
    const res = await client.POST("/api/explorer/search", { body: sent as never });
    if (!res.ok) throw failure(res.error, "retrieve", "the corpus search");
    const data = res.data as unknown as Row;
    out.push(...records(data.results));
    sort ??= typeof data.sort === "string" ? data.sort : null;
    if (typeof data.similarity_unavailable === "string") declined ??= data.similarity_unavailable;
    cursor = typeof data.next_cursor === "string" && data.has_more !== false ? data.next_cursor : null;
  } while (cursor && out.length < limit);
  return { records: out.slice(0, limit), sort, similarity_unavailable: declined };
}

export type SimilarOutcome =
  | { ok: true; records: PaperRecord[]; reason: string | null }
  | { ok: false; error: string; unreachable: boolean; apiError: ApiError };

/** Not an answer from resmon at all: it is down, or it restarted (401). */
export function unreachable(error: ApiError): boolean {
  return (
    error.kind === "transport" || error.kind === "timeout" || (error.kind === "http" && error.status === 401)
  );
}

export async function similarTo(client: ResmonClient, docId: number, k: number): Promise<SimilarOutcome> {
  const res = await client.GET("/api/documents/{document_id}/similar", {
    params: { path: { document_id: docId }, query: { k } },
  });
  if (!res.ok)
    return { ok: false, error: res.error.message, unreachable: unreachable(res.error), apiError: res.error };
  const data = res.data as unknown as Row;
  return {
    ok: true,
    records: records(data.neighbours),
    reason: typeof data.reason === "string" ? data.reason : null,
  };
}

export async function exportJson(client: ResmonClient, ids: number[]): Promise<PaperRecord[]> {
  const res = await client.POST("/api/export/references", { body: { document_ids: ids, format: "json" } });
  if (!res.ok) throw failure(res.error, "verify", "the reference export");
  // Export rows carry no id; the caller matches them back (id -1 marks "not yet matched").
  return (Array.isArray(res.data) ? res.data : [])
    .map((r) => recordFrom(r as Row, -1))
    .filter((r): r is PaperRecord => r !== null);
}

export async function exportBibtex(client: ResmonClient, ids: number[]): Promise<string> {
  if (ids.length === 0) return "";
  const res = await client.POST("/api/export/references", { body: { document_ids: ids, format: "bibtex" } });
  if (!res.ok) throw failure(res.error, "emit", "the BibTeX export");
  return typeof res.data === "string" ? res.data : String(res.data);
}

export async function lifecycleOf(
  client: ResmonClient,
  docId: number,
): Promise<
  { finished: true; check_status: string | null; events: Row[] } | { finished: false; error: string }
> {
  const res = await client.GET("/api/documents/{doc_id}/lifecycle", { params: { path: { doc_id: docId } } });
  if (!res.ok) return { finished: false, error: res.error.message };
  const data = res.data as unknown as Row;
  return {
    finished: true,
    check_status: typeof data.check_status === "string" ? data.check_status : null,
    events: Array.isArray(data.events) ? (data.events as Row[]) : [],
  };
}
