/** Turning a buffered HTTP answer into data or a typed error, by status and content-type. */
import type { AnswerHeaders } from "./answer-headers.js";
import { type ApiError, GUARD_REMEDIES, isGuardReason, retryRemedy } from "./errors.js";

export interface BufferedReply {
  status: number;
  statusText: string;
  headers: AnswerHeaders;
  bytes: Uint8Array;
}

const TEXT_TYPES = ["application/x-bibtex", "application/x-research-info-systems"];

function mediaType(headers: AnswerHeaders): string {
  return mediaTypeOf(headers.get("content-type"));
}

function isTextType(type: string): boolean {
  return type.startsWith("text/") || TEXT_TYPES.includes(type);
}

/** A body's media type as Node's raw headers give it ("application/json; charset=utf-8" → "application/json"). */
export function mediaTypeOf(contentType: unknown): string {
  const raw = Array.isArray(contentType) ? contentType[0] : contentType;
  return typeof raw === "string" ? (raw.split(";")[0]?.trim().toLowerCase() ?? "") : "";
}

export type BodyLimitKind = "bytes" | "json_values";

export interface BodyLimits {
  /** The most an answer may weigh, in bytes as it is written out again (see BodyMeter). */
  maxBodyBytes: number;
  /** The most JSON values (objects, arrays, keys, strings, numbers, literals) a JSON answer may hold. */
  maxJsonValues: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * What one byte of a text export weighs once passed on: the tool's answer carries it inside a JSON
 * string, and the answer's text block carries that JSON escaped once more (a quote: `\"` then `\\\"`).
 */
function textWeight(byte: number): number {
  if (byte === QUOTE || byte === BACKSLASH) return 4;
  if (byte >= 0x20) return 1;
  // \b \t \n \f \r have two-character escapes (three in the text block); others are \u00XX (seven).
  return byte === 0x08 || byte === 0x09 || byte === 0x0a || byte === 0x0c || byte === 0x0d ? 3 : 7;
}

/** A byte that belongs to a number or a true / false / null literal. */
function isScalarByte(byte: number): boolean {
  return (
    (byte >= 0x30 && byte <= 0x39) ||
    (byte >= 0x61 && byte <= 0x7a) ||
    (byte >= 0x41 && byte <= 0x5a) ||
    byte === 0x2d ||
    byte === 0x2b ||
    byte === 0x2e
  );
}

/**
 * Counts an answer while it streams in, so what it will cost is known before it is kept. Two limits:
 *
 * - Weight, against maxBodyBytes: the bytes the answer takes once written out again in the tool's
 *   text block (JSON escaped inside JSON): a byte, plus one for each quote and backslash of a JSON
 *   body; a text export's bytes as JSON-escaped twice (a control character weighs seven). A
 *   hostile body of escapes then costs no more memory on the way out than plain text of the same weight.
 * - Values, for JSON, against maxJsonValues: parsing costs memory per value far more than per byte
 *   (11 MB of `{}` took 464 MB). A small state machine over the bytes outside strings counts each
 *   object, array, string (keys too) and scalar; it judges no syntax.
 */
export class BodyMeter {
  readonly #limits: BodyLimits;
  readonly #text: boolean;
  #weight = 0;
  #values = 0;
  #inString = false;
  #escaped = false;
  #inScalar = false;

  constructor(contentType: unknown, limits: BodyLimits) {
    this.#limits = limits;
    this.#text = isTextType(mediaTypeOf(contentType));
  }

  /** Count one chunk; the limit it took the answer past, if any. */
  add(chunk: Uint8Array): BodyLimitKind | undefined {
    if (this.#text) {
      let weight = this.#weight;
      for (let i = 0; i < chunk.length; i += 1) weight += textWeight(chunk[i] as number);
      this.#weight = weight;
    } else {
      this.#countJson(chunk);
    }
    if (this.#weight > this.#limits.maxBodyBytes) return "bytes";
    return this.#values > this.#limits.maxJsonValues ? "json_values" : undefined;
  }

  #countJson(chunk: Uint8Array): void {
    let weight = this.#weight + chunk.length;
    let values = this.#values;
    let inString = this.#inString;
    let escaped = this.#escaped;
    let inScalar = this.#inScalar;
    for (let i = 0; i < chunk.length; i += 1) {
      const byte = chunk[i] as number;
      if (byte === QUOTE || byte === BACKSLASH) weight += 1;
      if (inString) {
        if (escaped) escaped = false;
        else if (byte === BACKSLASH) escaped = true;
        else if (byte === QUOTE) inString = false;
      } else if (byte === QUOTE || byte === 0x7b || byte === 0x5b) {
        values += 1;
        inString = byte === QUOTE;
        inScalar = false;
      } else if (isScalarByte(byte)) {
        if (!inScalar) values += 1;
        inScalar = true;
      } else {
        inScalar = false;
      }
    }
    this.#weight = weight;
    this.#values = values;
    this.#inString = inString;
    this.#escaped = escaped;
    this.#inScalar = inScalar;
  }
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

function resmonHeadersOf(headers: AnswerHeaders): Record<string, string> | undefined {
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
  const said =
    messageFromDetail(detail) ??
    `resmon answered HTTP ${reply.status}${reply.statusText ? ` ${reply.statusText}` : ""}.`;
  const retryAfter = parseRetryAfter(reply.headers.get("retry-after"));
  // resmon's own sentence, then what the holder of the client can do about a refusal of resmon's.
  const remedy = isGuardReason(reasonValue)
    ? GUARD_REMEDIES[reasonValue]
    : reply.status === 429
      ? retryRemedy(retryAfter)
      : undefined;
  const error: Extract<ApiError, { kind: "http" }> = {
    kind: "http",
    status: reply.status,
    message: remedy ? `${said.replace(/([^.!?])$/, "$1.")} ${remedy}` : said,
  };
  if (isGuardReason(reasonValue)) error.reason = reasonValue;
  if (detail !== undefined) error.detail = detail;
  if (retryAfter !== undefined) error.retryAfter = retryAfter;
  const resmonHeaders = resmonHeadersOf(reply.headers);
  if (resmonHeaders !== undefined) error.resmonHeaders = resmonHeaders;
  return error;
}
