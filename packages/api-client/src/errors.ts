/** Typed failures of a request to resmon. A request never throws: it resolves to an ApiResult. */
import type { AnswerHeaders } from "./answer-headers.js";

export type GuardReason = "token_missing" | "token_invalid" | "host_refused" | "origin_refused";

export const GUARD_REASONS: readonly GuardReason[] = [
  "token_missing",
  "token_invalid",
  "host_refused",
  "origin_refused",
];

export type ApiError =
  /** Refused, reset or dropped: no complete answer arrived. */
  | { kind: "transport"; message: string }
  /** The connect or total timeout fired; timeoutMs is the one that fired. */
  | { kind: "timeout"; message: string; timeoutMs: number }
  /** resmon answered with a non-2xx status (the body may be empty or not JSON). */
  | {
      kind: "http";
      status: number;
      reason?: GuardReason;
      detail?: unknown;
      retryAfter?: number;
      message: string;
      /**
       * resmon's own X-Resmon-* headers (lower-cased names), present only when the answer had any:
       * resmon names some refusals there (x-resmon-conflict, x-resmon-execution-id).
       */
      resmonHeaders?: Record<string, string>;
    }
  /** The answer passed the client's byte ceiling while it streamed in; the connection was destroyed. */
  | { kind: "too_large"; limit: "bytes"; message: string; limitBytes: number }
  /** A JSON answer held more values than the client's cap (counted while it streamed in); the connection was destroyed. */
  | { kind: "too_large"; limit: "json_values"; message: string; limitJsonValues: number }
  /** A 2xx whose body is not the JSON (or text) the route promises. */
  | { kind: "malformed"; status: number; message: string };

export type ApiResult<T> =
  | { ok: true; status: number; data: T; headers: AnswerHeaders }
  | { ok: false; error: ApiError };

/**
 * What the holder of this client can do about each of resmon's guard refusals, said after resmon's
 * own sentence in `error.message` (an app sees resmon's words and then what to do; the MCP server
 * words its own answer from `reason`).
 */
export const GUARD_REMEDIES: Readonly<Record<GuardReason, string>> = {
  token_missing:
    "Send resmon's token: discover() reads it from the state directory (api-token-<port>); with createResmonClient, pass it as `token`. If one was passed, something between this client and resmon drops the Authorization header.",
  token_invalid:
    "resmon mints a new token each time it starts, so this one is from an earlier run or another instance: call discover() again (it reads the current token), or pass the token from api-token-<port> in the state directory of the resmon on this port.",
  host_refused:
    "This client addresses 127.0.0.1 only, so something between it and resmon (a proxy) rewrote the Host header: connect to resmon directly.",
  origin_refused:
    "This client sends no Origin header, so something between it and resmon added one: connect to resmon directly.",
};

/** A busy resmon's 429: when to try again, from its Retry-After. */
export function retryRemedy(retryAfter: number | undefined): string {
  return retryAfter === undefined
    ? "resmon is busy: try again shortly."
    : `resmon is busy: try again in ${retryAfter} s (its Retry-After).`;
}

export function isGuardReason(value: unknown): value is GuardReason {
  return typeof value === "string" && (GUARD_REASONS as readonly string[]).includes(value);
}

const REDACTED = "<redacted>";

/** Replace every occurrence of the secret in a string (a second layer: messages are built without it). */
export function scrubText(text: string, secret: string): string {
  if (secret.length === 0) return text;
  return text.split(secret).join(REDACTED);
}

/** Deep copy of a JSON-like value with the secret removed from every string (keys included). */
export function scrubValue(value: unknown, secret: string): unknown {
  if (typeof value === "string") return scrubText(value, secret);
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, secret));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[scrubText(key, secret)] = scrubValue(item, secret);
    return out;
  }
  return value;
}

export function scrubError(error: ApiError, secret: string): ApiError {
  const message = scrubText(error.message, secret);
  if (error.kind === "http" && error.detail !== undefined) {
    return { ...error, message, detail: scrubValue(error.detail, secret) };
  }
  return { ...error, message };
}
