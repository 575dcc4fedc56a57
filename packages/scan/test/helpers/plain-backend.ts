import type { ApiError, ApiResult, ResmonClient } from "@resmon/api-client";
import { type ErrorCode, ToolError } from "@resmon/mcp-contract";
import type { ScanBackend } from "../../src/index.js";

/** The contract's error, as the server's adapter throws it. */
class Refused extends ToolError {
  constructor(code: ErrorCode, message: string, detail: Record<string, unknown>) {
    super(code, message, detail);
  }
}

/**
 * A test-only stand-in for the server's adapter (the one mapping lives in
 * packages/mcp-server/src/backend/adapter.ts, which the server's scan tests run through): just the
 * codes and detail the scan reads, and the per-request deadline.
 */
function refusal(error: ApiError): Refused {
  if (error.kind === "transport" || error.kind === "timeout")
    return new Refused("backend_unavailable", error.message, {});
  if (error.kind === "http") {
    const detail: Record<string, unknown> = { status: error.status };
    if (error.retryAfter !== undefined) detail.retry_after = error.retryAfter;
    if (error.status === 401) return new Refused("backend_unavailable", error.message, detail);
    if (error.status === 404) return new Refused("not_found", error.message, detail);
    if (error.status === 409 || error.status === 429) return new Refused("conflict", error.message, detail);
    if (error.status === 400 || error.status === 422)
      return new Refused("invalid_argument", error.message, detail);
  }
  return new Refused("upstream_error", error.message, {});
}

export function plainBackend(connect: () => Promise<ResmonClient>, timeoutMs = 30_000): ScanBackend {
  return {
    async call<T>(send: (c: ResmonClient) => Promise<ApiResult<T>>, options: { deadline?: number } = {}) {
      const left = Math.min(timeoutMs, (options.deadline ?? Number.POSITIVE_INFINITY) - Date.now());
      if (left <= 0) throw new Refused("backend_unavailable", "out of time", {});
      const res = await send((await connect()).within(left));
      if (res.ok) return res.data;
      throw refusal(res.error);
    },
  };
}
