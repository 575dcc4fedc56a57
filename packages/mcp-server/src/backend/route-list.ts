/**
 * Reading a resmon's own route list (GET /openapi.json, which FastAPI serves) with bounds of its
 * own (issue 34): a short deadline and a byte ceiling, whatever the tool call's timeout, so a route
 * list that drips or never ends costs a call seconds, not its whole timeout. What could not be read
 * is said to be unsettled, so the caller asks again later instead of keeping the failure as the answer.
 */
import type { ApiError, ResmonClient } from "@resmon/api-client";
import { routesOfOpenapi } from "./this-resmon.js";

/** resmon's own route list is 222 KB (../shared/resmon/openapi.json, 184 operations); FastAPI serves it at once. */
export const ROUTE_LIST_TIMEOUT_MS = 3_000;
export const ROUTE_LIST_MAX_BYTES = 2 * 1024 * 1024;

export type RouteList =
  /** settled: its answer, kept for this runtime id (a list, or none served: 404/405, or one past the ceiling). */
  | { routes: Set<string> | null; settled: true }
  /** Not read this time (slow, a 5xx, a cut or malformed body): placed by its version for now, asked again later. */
  | { routes: null; settled: false; why: string }
  /** Nothing answered at all: resmon is gone, which the call reports. */
  | { gone: ApiError };

export async function readRouteList(client: ResmonClient, timeoutMs: number): Promise<RouteList> {
  const read = await client
    .within(Math.min(ROUTE_LIST_TIMEOUT_MS, timeoutMs))
    .openApiDocument(ROUTE_LIST_MAX_BYTES);
  if (!read.ok) {
    const { error } = read;
    if (error.kind === "transport") return { gone: error };
    if (error.kind === "too_large") return { routes: null, settled: true };
    if (error.kind === "http" && (error.status === 404 || error.status === 405))
      return { routes: null, settled: true };
    return { routes: null, settled: false, why: error.kind === "http" ? `HTTP ${error.status}` : error.kind };
  }
  // A document that is no OpenAPI one (no paths) is an answer too: placed by its version.
  return { routes: routesOfOpenapi(read.data), settled: true };
}
