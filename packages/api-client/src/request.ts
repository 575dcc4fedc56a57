/**
 * One resmon request as plain data: its URL built by openapi-fetch's own serializers (path
 * parameters, query), its JSON body and its headers merged as openapi-fetch merges them. No fetch
 * class (`Request`, `Headers`, `FormData`) is touched: the first touch of one makes Node load its
 * whole fetch implementation, ~25 ms of a server's first tool call. The transport sends it.
 */
import { validateHeaderName, validateHeaderValue } from "node:http";
import { createFinalURL, createQuerySerializer, defaultPathSerializer } from "openapi-fetch";

type HeaderValue = string | number | boolean;
type HeaderValues = Record<string, HeaderValue | HeaderValue[] | null | undefined>;
/** Headers as openapi-fetch takes them: a record, or fetch's HeadersInit (a `Headers`, name/value pairs). */
type HeaderSource = HeaderValues | NonNullable<RequestInit["headers"]>;

/** What a route's init may carry (openapi-fetch's shape): params, a body, headers, a signal. */
export interface RequestParts {
  params?: {
    path?: Record<string, unknown>;
    query?: Record<string, unknown>;
    header?: HeaderValues;
  };
  body?: unknown;
  headers?: HeaderSource;
  signal?: AbortSignal | null;
}

/** A request ready for the transport, which sends it to its own base URL. */
export interface OutgoingRequest {
  method: string;
  /** The path and query string, e.g. "/api/executions/9?expected_runtime_id=…". */
  path: string;
  /** Lower-cased names; a header given several values carries them joined by ", ". */
  headers: Record<string, string>;
  body?: Buffer;
  signal?: AbortSignal;
}

const querySerializer = createQuerySerializer();

/** Leading and trailing HTTP whitespace, which `Headers` strips from a value. */
const EDGE_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;

/** A source's entries; a `Headers` (or a Map) is read through its own entries(), never named. */
function entriesOf(source: HeaderSource): Iterable<[string, unknown]> {
  if (Array.isArray(source)) return source as [string, string][];
  const own = (source as { entries?: unknown }).entries;
  if (typeof own === "function") return own.call(source) as Iterable<[string, unknown]>;
  return Object.entries(source);
}

/**
 * openapi-fetch's mergeHeaders without `Headers`: later sources win, `null` removes a header, an
 * array appends each value. A name or value `Headers` would refuse throws a TypeError naming the
 * header, never its value.
 */
export function mergeHeaders(...sources: (HeaderSource | undefined)[]): Record<string, string> {
  const merged = new Map<string, string[]>();
  for (const source of sources) {
    if (!source || typeof source !== "object") continue;
    for (const [key, value] of entriesOf(source)) {
      const name = key.toLowerCase();
      if (value === null) merged.delete(name);
      else if (value === undefined) continue;
      else if (Array.isArray(value)) merged.set(name, [...(merged.get(name) ?? []), ...value.map(String)]);
      else merged.set(name, [String(value)]);
    }
  }
  const headers: Record<string, string> = {};
  for (const [name, values] of merged) {
    const value = values.map((v) => v.replace(EDGE_WHITESPACE, "")).join(", ");
    validateHeaderName(name);
    validateHeaderValue(name, value);
    headers[name] = value;
  }
  return headers;
}

export function buildRequest(
  baseUrl: string,
  baseHeaders: Record<string, string>,
  method: string,
  path: string,
  parts: RequestParts = {},
): OutgoingRequest {
  const { params = {}, body, headers, signal } = parts;
  // openapi-fetch's defaultBodySerializer is this, after an `instanceof FormData` (which would load
  // Node's fetch): resmon takes JSON bodies only.
  const serialized = body === undefined ? undefined : JSON.stringify(body);
  // Content-Type first, so the caller's own headers override it; none without a JSON body.
  const finalHeaders = mergeHeaders(
    serialized === undefined ? {} : { "Content-Type": "application/json" },
    baseHeaders,
    headers,
    params.header,
  );
  const url = new URL(
    createFinalURL(path, { baseUrl, params, querySerializer, pathSerializer: defaultPathSerializer }),
  );
  const request: OutgoingRequest = { method, path: `${url.pathname}${url.search}`, headers: finalHeaders };
  if (serialized !== undefined && serialized.length > 0) request.body = Buffer.from(serialized, "utf8");
  if (signal) request.signal = signal;
  return request;
}
