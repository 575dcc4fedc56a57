/**
 * One resmon request as a fetch Request: its URL (path parameters and query serialized by
 * openapi-fetch's own serializers), its JSON body and its headers, exactly as openapi-fetch's client
 * builds them. The client sends it through its own transport, so no fetch shim is needed.
 */
import {
  createFinalURL,
  createQuerySerializer,
  defaultBodySerializer,
  defaultPathSerializer,
  mergeHeaders,
} from "openapi-fetch";

type HeaderValues = Record<
  string,
  string | number | boolean | (string | number | boolean)[] | null | undefined
>;

/** What a route's init may carry (openapi-fetch's shape): params, a body, headers, a signal. */
export interface RequestParts {
  params?: {
    path?: Record<string, unknown>;
    query?: Record<string, unknown>;
    header?: HeaderValues;
  };
  body?: unknown;
  headers?: RequestInit["headers"] | HeaderValues;
  signal?: AbortSignal | null;
}

const querySerializer = createQuerySerializer();

export function buildRequest(
  baseUrl: string,
  baseHeaders: Record<string, string>,
  method: string,
  path: string,
  parts: RequestParts = {},
): Request {
  const { params = {}, body, headers, ...rest } = parts;
  const serialized = body === undefined || body instanceof FormData ? body : defaultBodySerializer(body);
  // Content-Type first, so the caller's own headers override it; none without a JSON body.
  const finalHeaders = mergeHeaders(
    serialized === undefined || serialized instanceof FormData ? {} : { "Content-Type": "application/json" },
    baseHeaders,
    headers as HeaderValues | undefined,
    params.header,
  );
  const url = createFinalURL(path, {
    baseUrl,
    params,
    querySerializer,
    pathSerializer: defaultPathSerializer,
  });
  return new Request(url, {
    redirect: "follow",
    ...rest,
    method,
    body: serialized as RequestInit["body"],
    headers: finalHeaders,
  });
}
