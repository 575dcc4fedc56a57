import type { ApiResult, ResmonClient } from "@resmon/api-client";
import { ScanError, type ScanErrorCode } from "./errors.js";

/**
 * resmon as the scan reaches it: through the server's one adapter, so every request runs under the
 * tool call's deadline and every failure is mapped onto the contract's errors in one place (the
 * server's `CallBackend` is one). The scan never maps an HTTP outcome itself; it reads the mapped
 * refusal's code and detail (`status`, `retry_after`) where it must decide what to do next.
 */
export interface ScanBackend {
  /**
   * When the tool call arrived (ms since the epoch), if the caller knows: the scan's wait budget
   * counts from then, so what the server asked before the engine (its checks) is inside it too.
   */
  readonly arrivedAt?: number;
  /**
   * Send one request and answer its data; or reject with an Error carrying the contract's `code`,
   * `message` and `detail`. `deadline` (ms since the epoch) ends this request earlier than the tool
   * call's own deadline would: the scan's wait budget.
   */
  call<T>(send: (client: ResmonClient) => Promise<ApiResult<T>>, options?: { deadline?: number }): Promise<T>;
  /**
   * What this resmon lacks of what the scan uses (the server learns it once per runtime id from
   * resmon's own route list). Absent: a backend that serves everything the scan uses.
   */
  served?(): Promise<ScanServes>;
}

/** Something this resmon lacks, said as the server's version gap words it (its message and detail). */
export interface Lack {
  message: string;
  detail: Record<string, unknown>;
}

/** Of what the scan uses beyond resmon 1.6's surface, what this resmon lacks: null where it has it. */
export interface ScanServes {
  /** The JSON export with ids (resmon 2.3+): a sweep's rows are read through it; without it verification reads the CSV export. */
  json_export: Lack | null;
  /** `sort: "similarity"` on the explorer search (2.3+): without it no sort is sent. */
  similarity_search: Lack | null;
  /** GET /api/documents/{id}/similar (2.3+): the expansion. */
  similar: Lack | null;
  /** GET /api/documents/{id}/lifecycle (1.7+): without it every paper is lifecycle_unchecked. */
  lifecycle: Lack | null;
}

export const SERVES_ALL: ScanServes = {
  json_export: null,
  similarity_search: null,
  similar: null,
  lifecycle: null,
};

/** A lack as the scan's refusal: the version gap (conflict, not_in_this_resmon), with the stage added. */
export function lackRefusal(lack: Lack, stage: string): ScanError {
  return new ScanError("conflict", lack.message, { ...lack.detail, stage });
}

/** A refusal as the contract words it. */
export interface Refusal {
  code: ScanErrorCode;
  message: string;
  detail: Record<string, unknown>;
}

/** The contract's refusal an error carries, if it is one (what ScanBackend.call rejects with). */
export function refusalOf(error: unknown): Refusal | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code, detail } = error as Error & { code?: unknown; detail?: unknown };
  if (typeof code !== "string" || detail === null || typeof detail !== "object") return undefined;
  return { code: code as ScanErrorCode, message: error.message, detail: detail as Record<string, unknown> };
}

/** The call's wait budget ran out while a request was under way: answer the envelope as it stands. */
export class BudgetSpent extends Error {
  constructor() {
    super("The scan call's wait budget is spent.");
    this.name = "BudgetSpent";
  }
}

/** A failed request of the scan, as the server mapped it, with the scan's stage added to its detail. */
export function requestFailure(refusal: Refusal, stage: string, cause: unknown): ScanError {
  return new ScanError(refusal.code, refusal.message, { ...refusal.detail, stage }, cause);
}

/** The HTTP status resmon answered with, when the refusal came from one. */
export function statusOf(error: ScanError): number | undefined {
  const s = error.detail.status;
  return typeof s === "number" ? s : undefined;
}
