import {
  type ApiError,
  type Discovery,
  type DiscoveryRefusal,
  describeBytes,
  NOT_RUNNING_MESSAGE,
  nothingNamedMessage,
} from "@resmon/api-client";
import { backendUnavailable, invalidArgument, ToolError } from "../errors.js";
import { asRecord } from "../shape/values.js";

/**
 * Every way finding or asking resmon can fail, said as the contract's one ToolError: a discovery
 * refusal (refusalToError) and an HTTP outcome (mapApiError). Pure functions of what the client
 * reported; adapter.ts decides when to call them and whether to forget the connection after.
 */

/** What mapApiError needs of the request: the runtime id it was sent with, if any. */
export interface SentWith {
  /** Sent as ?expected_runtime_id; a structured 409 then means instance_mismatch. */
  expectedRuntimeId?: string;
}

/** "30 seconds" for whole seconds, else "1500 ms": a timeout as it was set. */
export function describeMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} second${ms === 1000 ? "" : "s"}` : `${ms} ms`;
}

/**
 * A discovery as this server says it: the client words its refusals for whoever holds it (an app);
 * where the spec gives the server a sentence (nothing named: "so this server did not look …"), the
 * server's answer, doctor and the start-up line say that one.
 */
export function inTheServersWords(found: Discovery): Discovery {
  if (found.ok || found.refusal.kind !== "nothing_named") return found;
  return { ok: false, refusal: { ...found.refusal, message: nothingNamedMessage(found.refusal.portFile) } };
}

export function refusalToError(refusal: DiscoveryRefusal): ToolError {
  const detail: Record<string, unknown> = { reason: refusal.kind, port_file: refusal.portFile };
  if (refusal.fileProblem !== undefined) detail.file_problem = refusal.fileProblem;
  if (refusal.port !== undefined) detail.port = refusal.port;
  if (refusal.stateDir) detail.state_dir = refusal.stateDir;
  if (refusal.tokenFile) detail.token_file = refusal.tokenFile;
  // The client words each refusal as the spec does: "not running" only for a named port that did
  // not answer, the nothing-named sentence with the port-file path, and otherwise what was found.
  const noPortNamed = refusal.kind === "nothing_named";
  if (refusal.kind === "not_answering" && refusal.message.startsWith(NOT_RUNNING_MESSAGE)) {
    // Nothing accepted a connection: the spec's exact sentence, the client's fuller account in detail.
    // Anything else that did not answer (a reset, a listener that hung) is said as it happened.
    return backendUnavailable(NOT_RUNNING_MESSAGE, refusal.tried, false, {
      ...detail,
      explanation: refusal.message,
    });
  }
  return backendUnavailable(refusal.message, noPortNamed ? [] : refusal.tried, noPortNamed, detail);
}

/** A 401 said as resmon said it: only token_invalid means the token is stale (a restart mints a new one). */
function unauthorizedMessage(reason: string | undefined): string {
  const again = "The next call will look for it afresh.";
  if (reason === "token_invalid") {
    return `resmon refused this server's token as not its own (token_invalid), which means the app restarted since this server found it (every start mints a new token). ${again}`;
  }
  if (reason === "token_missing") {
    return `resmon answered that no token reached it (token_missing), although this server sent one; something between may drop the Authorization header, or what answers is not that resmon. ${again}`;
  }
  return `resmon refused this request with HTTP 401 and did not say why. ${again}`;
}

export function isTokenRefusal(error: ApiError): boolean {
  return error.kind === "http" && error.status === 401;
}

/**
 * A 404 without resmon's JSON `detail` body: FastAPI always sends one, so whatever answered is not
 * resmon (another program took its port after this server found it).
 */
export function isForeignNotFound(error: ApiError): boolean {
  return error.kind === "http" && error.status === 404 && error.detail === undefined;
}

interface BackendDetail {
  message?: string;
  fields: Record<string, unknown>;
}

/** resmon's error `detail`: a sentence, a structured object, or FastAPI's validation list. */
export function readBackendDetail(detail: unknown): BackendDetail {
  if (typeof detail === "string" && detail.trim()) return { message: detail.trim(), fields: {} };
  if (Array.isArray(detail)) {
    const errors = detail.map((item) => {
      const record = asRecord(item);
      const loc = Array.isArray(record.loc) ? record.loc.filter((p) => p !== "body").join(".") : "";
      return { loc, msg: typeof record.msg === "string" ? record.msg : "invalid" };
    });
    const text = errors.map((e) => (e.loc ? `${e.loc}: ${e.msg}` : e.msg)).join("; ");
    return { message: `resmon rejected the request: ${text}.`, fields: { errors } };
  }
  if (detail && typeof detail === "object") {
    const fields = { ...(detail as Record<string, unknown>) };
    const message = typeof fields.message === "string" && fields.message.trim() ? fields.message : undefined;
    return message ? { message, fields } : { fields };
  }
  return { fields: {} };
}

/** resmon names a run conflict in headers (X-Resmon-Conflict, X-Resmon-Execution-Id). */
function conflictHeaders(error: ApiError): Record<string, unknown> {
  const headers = error.kind === "http" ? error.resmonHeaders : undefined;
  if (headers === undefined) return {};
  const out: Record<string, unknown> = {};
  const conflict = headers["x-resmon-conflict"];
  if (conflict) out.conflict = conflict;
  const id = Number(headers["x-resmon-execution-id"]);
  if (Number.isInteger(id) && id > 0) out.execution_id = id;
  return out;
}

export function mapApiError(error: ApiError, baseUrl: string, options: SentWith): ToolError {
  switch (error.kind) {
    case "transport":
      return backendUnavailable("resmon stopped responding part-way through the request.", [baseUrl], false);
    case "timeout":
      return backendUnavailable(
        `resmon did not answer within ${describeMs(error.timeoutMs)}, so this call gave up. The next call will look for it afresh.`,
        [baseUrl],
        false,
        { timeout_ms: error.timeoutMs },
      );
    case "too_large":
      return tooLargeError(error);
    case "malformed":
      return new ToolError(
        "upstream_error",
        "resmon answered with a body that is not the JSON it promised.",
        {
          status: error.status,
        },
      );
    case "http":
      return mapHttpError(error, baseUrl, options);
  }
}

/** Said for every tool alike: only some page, so a smaller page is offered as a maybe. */
const SMALLER_ANSWER =
  "If this tool takes a limit or a narrower filter, a smaller answer may fit; otherwise it cannot be read through this server as configured.";

function tooLargeError(error: Extract<ApiError, { kind: "too_large" }>): ToolError {
  if (error.limit === "json_values") {
    return new ToolError(
      "upstream_error",
      `resmon's answer held more than this server's cap of ${error.limitJsonValues} JSON values (far more than any real answer holds, and each costs memory to parse), so it was not read and the connection was closed. ${SMALLER_ANSWER}`,
      { limit_json_values: error.limitJsonValues },
    );
  }
  return new ToolError(
    "upstream_error",
    `resmon's answer was larger than this server's ceiling of ${describeBytes(error.limitBytes)}, so it was not read and the connection was closed. ${SMALLER_ANSWER} The ceiling is RESMON_MCP_MAX_BODY_BYTES.`,
    { limit_bytes: error.limitBytes },
  );
}

function mapHttpError(
  error: Extract<ApiError, { kind: "http" }>,
  baseUrl: string,
  options: SentWith,
): ToolError {
  const { status } = error;
  const detail = readBackendDetail(error.detail);
  const base = { status, ...detail.fields };
  if (status === 401) {
    return backendUnavailable(unauthorizedMessage(error.reason), [baseUrl], false, {
      status,
      ...(error.reason ? { reason: error.reason } : {}),
    });
  }
  if (isForeignNotFound(error)) {
    return backendUnavailable(
      `Something answered at ${baseUrl} with HTTP 404 and without resmon's error body, so it may not be resmon (another program may hold its port). The next call will look for resmon afresh.`,
      [baseUrl],
      false,
      { status, reason: "not_resmon" },
    );
  }
  if (status === 404) return new ToolError("not_found", detail.message ?? "resmon has no such item.", base);
  if (status === 400 || status === 422) {
    return invalidArgument(detail.message ?? "resmon rejected the request.", base);
  }
  // An argument so long that the request line, headers or body exceed what resmon's HTTP server
  // takes (a huge `kind` rides in the URL): the caller's argument, not a bug here.
  if (status === 413 || status === 414 || status === 431) {
    return invalidArgument(
      "resmon refused the request as too large: an argument is far longer than any real value.",
      { status },
    );
  }
  if (status === 409) {
    if (options.expectedRuntimeId !== undefined && detail.fields.code === "instance_mismatch") {
      return new ToolError(
        "instance_mismatch",
        "This call reached a different running resmon than the one expected, so its answer was not used.",
        {
          expected_runtime_id: detail.fields.expected_runtime_id ?? options.expectedRuntimeId,
          actual_runtime_id: detail.fields.actual_runtime_id ?? null,
        },
      );
    }
    return new ToolError("conflict", detail.message ?? "resmon could not accept that right now.", {
      ...base,
      ...conflictHeaders(error),
    });
  }
  if (status === 429) {
    const named = { ...base, ...conflictHeaders(error) };
    const withRetry = error.retryAfter !== undefined ? { ...named, retry_after: error.retryAfter } : named;
    return new ToolError(
      "conflict",
      detail.message ?? "resmon is already running as many runs as it allows. Try again shortly.",
      withRetry,
    );
  }
  if (status >= 500) {
    return new ToolError("upstream_error", detail.message ?? "resmon reported an internal error.", base);
  }
  // 403 host/origin refusals and anything else: this server sent something resmon will not take.
  return new ToolError("internal_error", "resmon refused a request this server built; that is a bug here.", {
    status,
    ...(error.reason ? { reason: error.reason } : {}),
  });
}
