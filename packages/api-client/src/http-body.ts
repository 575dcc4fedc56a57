/** Turning a buffered HTTP answer into data or a typed error, by status and content-type. */
import { type ApiError, isGuardReason } from "./errors.js";

export interface BufferedReply {
  status: number;
  statusText: string;
  headers: Headers;
  bytes: Uint8Array;
}

const TEXT_TYPES = ["application/x-bibtex", "application/x-research-info-systems"];

function mediaType(headers: Headers): string {
  return (headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

function isTextType(type: string): boolean {
  return type.startsWith("text/") || TEXT_TYPES.includes(type);
}

function decode(bytes: Uint8Array): string {
  return new TextDecoder("utf-8").decode(bytes);
}

function tryJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** A 2xx body: JSON when JSON is declared (or nothing is), text for BibTeX / RIS / CSV. */
export function parseSuccessBody(
  reply: BufferedReply,
): { ok: true; data: unknown } | { ok: false; error: Extract<ApiError, { kind: "malformed" }> } {
  const type = mediaType(reply.headers);
  const text = decode(reply.bytes);
  if (isTextType(type)) return { ok: true, data: text };
  if (reply.status === 204 && text.length === 0) return { ok: true, data: null };
  const parsed = tryJson(text);
  if (parsed.ok) return { ok: true, data: parsed.value };
  const what =
    text.trim().length === 0
      ? "an empty body"
      : `a body that is not valid JSON (${type || "no content-type"})`;
  return {
    ok: false,
    error: {
      kind: "malformed",
      status: reply.status,
      message: `resmon answered HTTP ${reply.status} with ${what}.`,
    },
  };
}

/** Seconds from a Retry-After header (delta-seconds or an HTTP date); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number.parseInt(trimmed, 10);
  // An HTTP date names its weekday and month; bare numbers like "-3" are not dates.
  if (!/[A-Za-z]{3}/.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

function messageFromDetail(detail: unknown): string | undefined {
  if (typeof detail === "string" && detail.trim().length > 0) return detail.trim();
  if (detail !== null && typeof detail === "object" && !Array.isArray(detail)) {
    const message = (detail as Record<string, unknown>).message;
    if (typeof message === "string" && message.trim().length > 0) return message.trim();
  }
  if (Array.isArray(detail) && detail.length > 0) {
    const first = detail[0];
    if (first !== null && typeof first === "object") {
      const msg = (first as Record<string, unknown>).msg;
      const loc = (first as Record<string, unknown>).loc;
      if (typeof msg === "string") {
        const where = Array.isArray(loc) ? loc.join(".") : "";
        return where ? `${msg} (${where})` : msg;
      }
    }
  }
  return undefined;
}

function resmonHeadersOf(headers: Headers): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  let any = false;
  headers.forEach((value, name) => {
    if (name.toLowerCase().startsWith("x-resmon-")) {
      out[name.toLowerCase()] = value;
      any = true;
    }
  });
  return any ? out : undefined;
}

/** A non-2xx answer as a typed http error; an empty or non-JSON body is still an error. */
export function httpErrorFrom(reply: BufferedReply): Extract<ApiError, { kind: "http" }> {
  const text = decode(reply.bytes);
  const parsed = text.trim().length > 0 ? tryJson(text) : { ok: false as const };
  const body = parsed.ok ? parsed.value : undefined;
  const detail =
    body !== null && typeof body === "object" && !Array.isArray(body) && "detail" in body
      ? (body as Record<string, unknown>).detail
      : undefined;
  const reasonValue =
    detail !== null && typeof detail === "object" && !Array.isArray(detail)
      ? (detail as Record<string, unknown>).reason
      : undefined;
  const error: Extract<ApiError, { kind: "http" }> = {
    kind: "http",
    status: reply.status,
    message:
      messageFromDetail(detail) ??
      `resmon answered HTTP ${reply.status}${reply.statusText ? ` ${reply.statusText}` : ""}.`,
  };
  if (isGuardReason(reasonValue)) error.reason = reasonValue;
  if (detail !== undefined) error.detail = detail;
  const retryAfter = parseRetryAfter(reply.headers.get("retry-after"));
  if (retryAfter !== undefined) error.retryAfter = retryAfter;
  const resmonHeaders = resmonHeadersOf(reply.headers);
  if (resmonHeaders !== undefined) error.resmonHeaders = resmonHeaders;
  return error;
}
