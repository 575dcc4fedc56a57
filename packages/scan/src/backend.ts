import type { ApiResult, ResmonClient } from "@resmon/api-client";
import type { ToolError } from "@resmon/mcp-contract";

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
   * Send one request and answer its data; or reject with the contract's ToolError. `deadline` (ms since the epoch) ends this request earlier than the tool
   * call's own deadline would: the scan's wait budget.
   */
  call<T>(send: (client: ResmonClient) => Promise<ApiResult<T>>, options?: { deadline?: number }): Promise<T>;
  /**
   * What this resmon lacks of what the scan uses (the server learns it once per runtime id from
   * resmon's own route list). Absent: a backend that serves everything the scan uses.
   */
  served?(): Promise<ScanServes>;
}

/**
 * Of what the scan uses beyond resmon 1.6's surface, what this resmon lacks: null where it has it,
 * else the server's version gap refusal for it (conflict, not_in_this_resmon).
 */
export interface ScanServes {
  /** The JSON export with ids (resmon 2.3+): a sweep's rows are read through it; without it verification reads the CSV export. */
  json_export: ToolError | null;
  /** `sort: "similarity"` on the explorer search (2.3+): without it no sort is sent. */
  similarity_search: ToolError | null;
  /** GET /api/documents/{id}/similar (2.3+): the expansion. */
  similar: ToolError | null;
  /** GET /api/documents/{id}/lifecycle (1.7+): without it every paper is lifecycle_unchecked. */
  lifecycle: ToolError | null;
}

export const SERVES_ALL: ScanServes = {
  json_export: null,
  similarity_search: null,
  similar: null,
  lifecycle: null,
};

/** The call's wait budget ran out while a request was under way: answer the envelope as it stands. */
export class BudgetSpent extends Error {
  /**
   * `sent`: the request may have reached resmon (cut in flight). False when the budget was spent
   * before it was sent: nothing can land, so nothing is waited for.
   */
  constructor(readonly sent = true) {
    super("The scan call's wait budget is spent.");
    this.name = "BudgetSpent";
  }
}
