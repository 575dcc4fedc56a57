import {
  AnswerHeaders,
  type ApiError,
  type ApiResult,
  type Discovery,
  type ResmonClient,
  type ViewOptions,
} from "@resmon/api-client";
import type { DiscoverFn } from "../../src/backend/adapter.js";

/** One request as the fake client saw it: method, path template, params and body. */
export interface SeenRequest {
  method: "GET" | "POST" | "PUT";
  path: string;
  query: Record<string, unknown>;
  pathParams: Record<string, unknown>;
  body: unknown;
}

export type FakeReply =
  | { status: number; body: unknown; retryAfter?: number }
  | { fail: "transport" | "timeout" | "malformed" };

export type Responder = (req: SeenRequest) => FakeReply;

interface LooseInit {
  params?: { path?: Record<string, unknown>; query?: Record<string, unknown> };
  body?: unknown;
}

function toResult(reply: FakeReply): ApiResult<unknown> {
  if ("fail" in reply) {
    const error: ApiError =
      reply.fail === "transport"
        ? { kind: "transport", message: "connection refused" }
        : reply.fail === "timeout"
          ? { kind: "timeout", message: "timed out", timeoutMs: 30_000 }
          : { kind: "malformed", status: 200, message: "not JSON" };
    return { ok: false, error };
  }
  if (reply.status >= 200 && reply.status < 300) {
    return { ok: true, status: reply.status, data: reply.body, headers: new AnswerHeaders() };
  }
  const body = reply.body as { detail?: unknown } | null;
  const detail = body && typeof body === "object" ? body.detail : undefined;
  const reasonValue =
    detail && typeof detail === "object" ? (detail as { reason?: unknown }).reason : undefined;
  const error: ApiError = {
    kind: "http",
    status: reply.status,
    detail,
    message: `HTTP ${reply.status}`,
    ...(reasonValue === "token_invalid" || reasonValue === "token_missing" ? { reason: reasonValue } : {}),
    ...(reply.retryAfter !== undefined ? { retryAfter: reply.retryAfter } : {}),
  };
  return { ok: false, error };
}

/**
 * A ResmonClient double: records every request to a resmon route and answers through `respond`.
 * Its `/openapi.json` (the route list the server reads once per runtime id) is a 404, as from a
 * backend without one, and not recorded: the server then assumes the current surface.
 */
export function fakeClient(
  respond: Responder,
  seen: SeenRequest[],
  port = 51734,
  view: ViewOptions = {},
): ResmonClient {
  const call = (method: SeenRequest["method"]) => async (path: string, init?: LooseInit) => {
    if (path === "/openapi.json") return toResult({ status: 404, body: { detail: "Not Found" } });
    // As the real client: a route the view refuses is thrown, and nothing is recorded as sent.
    const refused = view.refuse?.(method, path);
    if (refused) throw refused;
    const req: SeenRequest = {
      method,
      path,
      query: init?.params?.query ?? {},
      pathParams: init?.params?.path ?? {},
      body: init?.body,
    };
    seen.push(req);
    return toResult(respond(req));
  };
  const client = {
    baseUrl: `http://127.0.0.1:${port}`,
    port,
    GET: call("GET"),
    POST: call("POST"),
    PUT: call("PUT"),
    openApiDocument: () => call("GET")("/openapi.json"),
    within: (_ms: number, options?: ViewOptions) =>
      options ? fakeClient(respond, seen, port, options) : client,
    close: async () => undefined,
  };
  return client as unknown as ResmonClient;
}

/** A discovery that found `client` (a fake's), as discover() answers when resmon is there. */
export function foundDiscovery(client: ResmonClient): Discovery {
  return {
    ok: true,
    client,
    baseUrl: client.baseUrl,
    port: client.port,
    stateDir: "/nonexistent-state-dir",
    portSource: "RESMON_PORT",
    health: {},
    identity: { ok: false, problem: "missing" },
  };
}

/** A discover double that always finds the fake client, counting how often it was asked. */
export function fakeDiscover(respond: Responder): {
  discoverFn: DiscoverFn;
  seen: SeenRequest[];
  discoveries: () => number;
} {
  const seen: SeenRequest[] = [];
  let count = 0;
  const discoverFn: DiscoverFn = async () => {
    count += 1;
    return foundDiscovery(fakeClient(respond, seen));
  };
  return { discoverFn, seen, discoveries: () => count };
}

/**
 * What resmon 2.3 records on every run beyond 1.6's row (its lineage and which sources answered),
 * for a fake execution body: get_execution refuses a 2.3 run without them (upstream_error).
 */
export const RUN_RECORD_23 = {
  interrupted_reason: null,
  restarted_from: null,
  restarted_into: [],
  coverage: { basis: "recorded", counts: { answered: 1, non_answer: 0, unknown: 0, genuine_empty: 0 } },
  source_outcomes: { selected: 1, answered: 1, could_not_answer: 0, not_recorded: 0 },
} as const;
