/**
 * createResmonClient: openapi-fetch typed by the generated paths, over our own transport.
 * Base URL is always http://127.0.0.1:<port>; every request carries the bearer token and no Origin.
 */
import type { Client, ClientPathsWithMethod, MaybeOptionalInit } from "openapi-fetch";
import createClient from "openapi-fetch";
import { type ApiError, type ApiResult, scrubError } from "./errors.js";
import type { paths } from "./generated/resmon-api.js";
import { type BufferedReply, httpErrorFrom, parseSuccessBody } from "./http-body.js";
import { ApiStreamError, type Opening, type StreamedReply, Transport } from "./transport.js";

export interface ResmonClientOptions {
  port: number;
  token: string;
  /** Total time for one request, body included. Default 30000. */
  timeoutMs?: number;
  /** Time to establish the TCP connection. Default 3000. */
  connectTimeoutMs?: number;
  /** The largest answer body read (counted while streaming); a larger one is a too_large error. Default 6 MiB. */
  maxBodyBytes?: number;
  /** The most JSON values an answer may hold (counted while streaming); more is a too_large error. Default 250,000. */
  maxJsonValues?: number;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_CONNECT_TIMEOUT_MS = 3_000;
export const DEFAULT_MAX_BODY_BYTES = 6 * 1024 * 1024;
export const DEFAULT_MAX_JSON_VALUES = 250_000;

type RawClient = Client<paths, `${string}/${string}`>;
export type HttpVerb = "get" | "post" | "put" | "delete" | "patch";
export type PathsWith<M extends HttpVerb> = ClientPathsWithMethod<RawClient, M>;
type SuccessStatus = 200 | 201 | 202 | 203 | 204 | 206 | 207 | "2XX";
type ContentOf<R> = R extends { content: infer C } ? C[keyof C] : never;
/**
 * The success body of a route: the union of its 2xx responses over every content type (JSON, or
 * text for exports). Our own helper rather than openapi-fetch's MethodResponse, whose Readable<>
 * drops properties typed exactly `null` (such as a queued run's execution_id).
 */
export type ResponseBodyOf<P extends PathsWith<M>, M extends HttpVerb> = paths[P][M] extends {
  responses: infer R;
}
  ? { [S in keyof R]: S extends SuccessStatus ? ContentOf<R[S]> : never }[keyof R]
  : never;
/** openapi-fetch's init: { params: { path, query }, body, signal, headers }. */
export type RequestInitOf<P extends keyof paths, M extends HttpVerb> = MaybeOptionalInit<paths[P], M>;
type InitArgs<I> = undefined extends I ? [init?: I] : [init: I];
type MethodName = Uppercase<HttpVerb>;

/**
 * A streamed answer: `body` yields the bytes as they arrive, never held whole (an export, a backup,
 * a file, a progress stream). Reading it stays inside the request's deadline; a failure part-way
 * throws ApiStreamError (its `apiError` as any other failure). Stop early by breaking out.
 */
export type StreamResult =
  | { ok: true; status: number; headers: Headers; body: AsyncIterable<Uint8Array> }
  | {
      ok: false;
      error: ApiError;
    };

export interface StreamOptions {
  /** The most bytes the body may hold; past it the stream fails with too_large. Default: no cap. */
  maxBytes?: number;
}
/** A route's init plus the stream's options, optional exactly when the route's init is. */
export type StreamInitOf<P extends keyof paths, M extends HttpVerb> =
  RequestInitOf<P, M> extends infer I
    ? undefined extends I
      ? (Exclude<I, undefined> & StreamOptions) | undefined
      : I & StreamOptions
    : never;

export interface ResmonClient {
  /** "http://127.0.0.1:<port>", always. */
  readonly baseUrl: string;
  readonly port: number;
  GET<P extends PathsWith<"get">>(
    path: P,
    ...init: InitArgs<RequestInitOf<P, "get">>
  ): Promise<ApiResult<ResponseBodyOf<P, "get">>>;
  POST<P extends PathsWith<"post">>(
    path: P,
    ...init: InitArgs<RequestInitOf<P, "post">>
  ): Promise<ApiResult<ResponseBodyOf<P, "post">>>;
  PUT<P extends PathsWith<"put">>(
    path: P,
    ...init: InitArgs<RequestInitOf<P, "put">>
  ): Promise<ApiResult<ResponseBodyOf<P, "put">>>;
  DELETE<P extends PathsWith<"delete">>(
    path: P,
    ...init: InitArgs<RequestInitOf<P, "delete">>
  ): Promise<ApiResult<ResponseBodyOf<P, "delete">>>;
  PATCH<P extends PathsWith<"patch">>(
    path: P,
    ...init: InitArgs<RequestInitOf<P, "patch">>
  ): Promise<ApiResult<ResponseBodyOf<P, "patch">>>;
  /**
   * The same request as `GET`/`POST`/…, its 2xx body streamed to the caller instead of parsed
   * (for BibTeX/RIS/CSV exports, backups, library files, the progress stream). A non-2xx answer is
   * the usual `{ ok: false, error }`.
   */
  stream<M extends MethodName, P extends PathsWith<Lowercase<M>>>(
    method: M,
    path: P,
    ...init: InitArgs<StreamInitOf<P, Lowercase<M>>>
  ): Promise<StreamResult>;
  /** resmon's own OpenAPI document (`GET /openapi.json`, which FastAPI serves): its route list, untyped. */
  openApiDocument(): Promise<ApiResult<unknown>>;
  /**
   * The same client with each request bounded by timeoutMs as well (never longer than its own
   * timeout): how a caller shares one deadline among several requests.
   */
  within(timeoutMs: number): ResmonClient;
  /** Releases the keep-alive connections. */
  close(): Promise<void>;
}

export function isValidPort(port: unknown): port is number {
  return typeof port === "number" && Number.isInteger(port) && port >= 1 && port <= 65_535;
}

export function loopbackUrl(port: number): string {
  return `http://127.0.0.1:${port}`;
}

/** Thrown from the custom fetch so openapi-fetch stops; caught again in `call`. */
class ExchangeFailed extends Error {
  constructor(readonly apiError: ApiError) {
    super(apiError.message);
  }
}

type LooseInit = { [key: string]: unknown } | undefined;
type LooseMethod = (path: string, init?: LooseInit) => Promise<{ response: Response }>;

export function createResmonClient(options: ResmonClientOptions): ResmonClient {
  if (!isValidPort(options.port)) {
    throw new RangeError(`A resmon port is an integer from 1 to 65535, not ${String(options.port)}.`);
  }
  const { port, token } = options;
  const baseUrl = loopbackUrl(port);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const transport = new Transport({
    baseUrl,
    timeoutMs,
    connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    maxJsonValues: options.maxJsonValues ?? DEFAULT_MAX_JSON_VALUES,
  });
  // The buffered answer behind each Response handed to openapi-fetch, so we parse it ourselves.
  const replies = new WeakMap<Response, BufferedReply>();
  // The streamed (or error) answer behind each Response of a `stream` call.
  const openings = new WeakMap<Response, Opening>();

  /** The fetch handed to openapi-fetch: one exchange within `limitMs`. */
  const fetchWithin = (limitMs: number) => async (request: Request) => {
    const exchange = await transport.exchange(request, limitMs);
    if (!exchange.ok) throw new ExchangeFailed(exchange.error);
    const { reply } = exchange;
    const nullBody = reply.status === 204 || reply.status === 205 || reply.status === 304;
    const response = new Response(nullBody ? null : reply.bytes, {
      status: reply.status,
      headers: reply.headers,
    });
    replies.set(response, reply);
    return response;
  };

  /** The fetch handed to openapi-fetch by `stream`: the body stays with the transport, unread. */
  const openWithin = (limitMs: number, maxBytes: number | undefined) => async (request: Request) => {
    const opening = await transport.open(request, limitMs, maxBytes);
    const response = new Response(null, { status: 200 });
    openings.set(response, opening);
    return response;
  };

  const raw = createClient<paths, `${string}/${string}`>({
    baseUrl,
    headers: { Authorization: `Bearer ${token}`, Accept: "application/json" },
  });

  async function call(
    method: LooseMethod,
    path: string,
    init: LooseInit,
    limitMs: number,
  ): Promise<ApiResult<unknown>> {
    let response: Response;
    try {
      ({ response } = await method(path, { ...init, parseAs: "stream", fetch: fetchWithin(limitMs) }));
    } catch (error) {
      const apiError: ApiError =
        error instanceof ExchangeFailed
          ? error.apiError
          : { kind: "transport", message: `The request to ${baseUrl} could not be sent.` };
      return { ok: false, error: scrubError(apiError, token) };
    }
    const reply = replies.get(response);
    if (reply === undefined) {
      return { ok: false, error: { kind: "transport", message: `No answer was recorded for ${baseUrl}.` } };
    }
    if (reply.status < 200 || reply.status > 299) {
      return { ok: false, error: scrubError(httpErrorFrom(reply), token) };
    }
    const body = parseSuccessBody(reply);
    if (!body.ok) return { ok: false, error: scrubError(body.error, token) };
    return { ok: true, status: reply.status, data: body.data, headers: reply.headers };
  }

  async function stream(
    method: LooseMethod,
    path: string,
    init: LooseInit,
    limitMs: number,
  ): Promise<StreamResult> {
    const { maxBytes, ...rest } = init ?? {};
    const cap = typeof maxBytes === "number" ? maxBytes : undefined;
    let response: Response;
    try {
      ({ response } = await method(path, { ...rest, parseAs: "stream", fetch: openWithin(limitMs, cap) }));
    } catch {
      return {
        ok: false,
        error: { kind: "transport", message: `The request to ${baseUrl} could not be sent.` },
      };
    }
    const opening = openings.get(response);
    if (opening === undefined) {
      return { ok: false, error: { kind: "transport", message: `No answer was recorded for ${baseUrl}.` } };
    }
    if (!opening.ok) return { ok: false, error: scrubError(opening.error, token) };
    if ("reply" in opening) return { ok: false, error: scrubError(httpErrorFrom(opening.reply), token) };
    return {
      ok: true,
      status: opening.streamed.status,
      headers: opening.streamed.headers,
      body: scrubbed(opening.streamed),
    };
  }

  /** The body, with any failure's message scrubbed of the token like every other error. */
  async function* scrubbed(reply: StreamedReply): AsyncGenerator<Uint8Array> {
    try {
      yield* reply.body;
    } catch (error) {
      if (error instanceof ApiStreamError) throw new ApiStreamError(scrubError(error.apiError, token));
      throw error;
    }
  }

  const loose = raw as unknown as Record<MethodName, LooseMethod>;
  const bounded = (limitMs: number): ResmonClient => {
    const client = {
      baseUrl,
      port,
      GET: (path: string, init?: LooseInit) => call(loose.GET, path, init, limitMs),
      POST: (path: string, init?: LooseInit) => call(loose.POST, path, init, limitMs),
      PUT: (path: string, init?: LooseInit) => call(loose.PUT, path, init, limitMs),
      DELETE: (path: string, init?: LooseInit) => call(loose.DELETE, path, init, limitMs),
      PATCH: (path: string, init?: LooseInit) => call(loose.PATCH, path, init, limitMs),
      stream: (method: MethodName, path: string, init?: LooseInit) =>
        loose[method] === undefined
          ? Promise.resolve({
              ok: false,
              error: { kind: "transport", message: `No such method: ${String(method)}.` },
            })
          : stream(loose[method], path, init, limitMs),
      openApiDocument: () => call(loose.GET, "/openapi.json", undefined, limitMs),
      within: (ms: number) => bounded(Math.max(0, Math.min(ms, limitMs))),
      close: () => transport.close(),
      toString: () => `ResmonClient(${baseUrl})`,
    };
    return client as unknown as ResmonClient;
  };
  // The token lives only in the closures above; nothing enumerable on the client holds it.
  return bounded(timeoutMs);
}
