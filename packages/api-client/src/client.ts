/**
 * createResmonClient: each verb typed by the generated paths (openapi-fetch's types), its request
 * built by openapi-fetch's serializers (request.ts) and sent through our own transport.
 * Base URL is always http://127.0.0.1:<port>; every request carries the bearer token and no Origin.
 */
import type { Client, ClientPathsWithMethod, MaybeOptionalInit } from "openapi-fetch";
import type { AnswerHeaders } from "./answer-headers.js";
import { type ApiError, type ApiResult, scrubError } from "./errors.js";
import type { paths } from "./generated/resmon-api.js";
import { httpErrorFrom, parseSuccessBody } from "./http-body.js";
import { buildRequest, type OutgoingRequest, type RequestParts } from "./request.js";
import { ApiStreamError, type StreamedReply, Transport } from "./transport.js";

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
export type MethodName = Uppercase<HttpVerb>;
const METHODS: readonly string[] = ["GET", "POST", "PUT", "DELETE", "PATCH"];
/**
 * The path parameter: the path itself when resmon serves it with this method, else the list of those
 * it does. Inferred from the argument unconstrained, so a path resmon does not serve is refused by
 * name ("Argument of type '"/api/routinez"' is not assignable …") instead of as a missing argument
 * (TS2554, which a constrained type parameter gave, since its init then became required). Not
 * distributed over a union, so a union of paths (or `never`) is taken whole, as before.
 */
export type ServedPath<P extends string, M extends HttpVerb> = [P] extends [PathsWith<M>] ? P : PathsWith<M>;
/**
 * The init arguments of a served path; for any other path (or a path cast to `never`), whatever was
 * passed: the path is the error.
 */
type ArgsOf<P extends string, M extends HttpVerb> = [P] extends [never]
  ? [init?: unknown]
  : [P] extends [PathsWith<M>]
    ? InitArgs<RequestInitOf<P, M>>
    : [init?: unknown];
type StreamArgsOf<P extends string, M extends HttpVerb> = [P] extends [never]
  ? [init?: unknown]
  : [P] extends [PathsWith<M>]
    ? InitArgs<StreamInitOf<P, M>>
    : [init?: unknown];
type AnswerOf<P extends string, M extends HttpVerb> = ApiResult<
  [P] extends [PathsWith<M>] ? ResponseBodyOf<P & PathsWith<M>, M> : never
>;

/**
 * A streamed answer: `body` yields the bytes as they arrive, never held whole (an export, a backup,
 * a file, a progress stream). Reading it stays inside the request's deadline; a failure part-way
 * throws ApiStreamError (its `apiError` as any other failure). Stop early by breaking out.
 */
export type StreamResult =
  | { ok: true; status: number; headers: AnswerHeaders; body: AsyncIterable<Uint8Array> }
  | {
      ok: false;
      error: ApiError;
    };

export interface StreamOptions {
  /** The most bytes the body may hold; past it the stream fails with too_large. Default: no cap. Not a number of bytes (NaN, negative): a RangeError, nothing sent. */
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
  GET<P extends string>(path: ServedPath<P, "get">, ...init: ArgsOf<P, "get">): Promise<AnswerOf<P, "get">>;
  POST<P extends string>(
    path: ServedPath<P, "post">,
    ...init: ArgsOf<P, "post">
  ): Promise<AnswerOf<P, "post">>;
  PUT<P extends string>(path: ServedPath<P, "put">, ...init: ArgsOf<P, "put">): Promise<AnswerOf<P, "put">>;
  DELETE<P extends string>(
    path: ServedPath<P, "delete">,
    ...init: ArgsOf<P, "delete">
  ): Promise<AnswerOf<P, "delete">>;
  PATCH<P extends string>(
    path: ServedPath<P, "patch">,
    ...init: ArgsOf<P, "patch">
  ): Promise<AnswerOf<P, "patch">>;
  /**
   * The same request as `GET`/`POST`/…, its 2xx body streamed to the caller instead of parsed
   * (for BibTeX/RIS/CSV exports, backups, library files, the progress stream). A non-2xx answer is
   * the usual `{ ok: false, error }`.
   */
  stream<M extends MethodName, P extends string>(
    method: M,
    path: ServedPath<P, Lowercase<M>>,
    ...init: StreamArgsOf<P, Lowercase<M>>
  ): Promise<StreamResult>;
  /**
   * resmon's own OpenAPI document (`GET /openapi.json`, which FastAPI serves): its route list,
   * untyped, its body read to at most `maxBytes` (default: the client's ceiling; past it too_large,
   * the rest not read).
   */
  openApiDocument(maxBytes?: number): Promise<ApiResult<unknown>>;
  /**
   * The same client with each request bounded by timeoutMs as well (never longer than its own
   * timeout): how a caller shares one deadline among several requests. `options` (default: this
   * view's) may refuse a route before anything is sent.
   */
  within(timeoutMs: number, options?: ViewOptions): ResmonClient;
  /** Releases the keep-alive connections. */
  close(): Promise<void>;
  /** "ResmonClient(<baseUrl>)": never the token. */
  toString(): string;
}

export function isValidPort(port: unknown): port is number {
  return typeof port === "number" && Number.isInteger(port) && port >= 1 && port <= 65_535;
}

export function loopbackUrl(port: number): string {
  return `http://127.0.0.1:${port}`;
}

const NOT_SENT = (baseUrl: string): ApiError => ({
  kind: "transport",
  message: `The request to ${baseUrl} could not be sent.`,
});

/** How one view of the client sends: a check that may refuse a route before anything is sent, and a cancel. */
export interface ViewOptions {
  /**
   * Asked before each request with its method and route (the path as the types name it, e.g.
   * "/api/executions/{exec_id}"): a value returned is thrown instead, and nothing is sent.
   */
  refuse?: (method: MethodName, path: string) => Error | undefined;
  /**
   * Goes with every request of this view (beside a request's own `signal`): once it aborts, a request
   * not yet sent is not sent, and one in flight is aborted; either answers a transport error.
   */
  signal?: AbortSignal;
  /**
   * Awaited once an answer's declared length (Content-Length) is known, before its body is read: a
   * process may bound how much it reads at once. The request's timeout is paused while it waits, since
   * resmon has answered and the wait is the caller's own. An answer of no declared length (chunked) is
   * counted as it arrives: once UNDECLARED_ASKED_FROM bytes are in, this is asked with the client's
   * ceiling (the most the body may be) and the rest is not read until it resolves.
   */
  beforeBody?: (bytes: number) => Promise<void>;
}

const CANCELLED = (baseUrl: string): ApiError => ({
  kind: "transport",
  message: `The request to ${baseUrl} was cancelled before it was sent.`,
});

/** The request's parts with the view's signal added to its own, if either is set. */
function withViewSignal<T extends RequestParts>(init: T | undefined, view: ViewOptions): T | undefined {
  if (!view.signal) return init;
  const own = init?.signal;
  return { ...init, signal: own ? AbortSignal.any([own, view.signal]) : view.signal } as T;
}

export function createResmonClient(options: ResmonClientOptions): ResmonClient {
  if (!isValidPort(options.port)) {
    throw new RangeError(`A resmon port is an integer from 1 to 65535, not ${String(options.port)}.`);
  }
  const { port, token } = options;
  const baseUrl = loopbackUrl(port);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const transport = new Transport({
    baseUrl,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    maxBodyBytes,
    maxJsonValues: options.maxJsonValues ?? DEFAULT_MAX_JSON_VALUES,
  });
  // The token lives only in these closures; nothing enumerable on the client holds it.
  const headers = { Authorization: `Bearer ${token}`, Accept: "application/json" };
  const request = (method: MethodName, path: string, init: RequestParts | undefined) =>
    buildRequest(baseUrl, headers, method, path, init);
  const scrub = (error: ApiError) => scrubError(error, token);
  return clientView(
    { baseUrl, port, request, transport, scrub, maxBodyBytes },
    options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    {},
  );
}

/** What every view of one client shares: where it sends, how it builds a request, the transport, the scrubber. */
interface ClientCore {
  baseUrl: string;
  port: number;
  request: (method: MethodName, path: string, init: RequestParts | undefined) => OutgoingRequest;
  transport: Transport;
  scrub: (error: ApiError) => ApiError;
  /** The client's ceiling on one answer's bytes. */
  maxBodyBytes: number;
}

/** One request, its whole answer read and parsed: the data, or the ApiError (token scrubbed). */
async function send(
  core: ClientCore,
  method: MethodName,
  path: string,
  init: RequestParts | undefined,
  limitMs: number,
  view: ViewOptions,
): Promise<ApiResult<unknown>> {
  const refused = view.refuse?.(method, path);
  if (refused) throw refused;
  if (view.signal?.aborted) return { ok: false, error: CANCELLED(core.baseUrl) };
  let request: OutgoingRequest;
  try {
    request = core.request(method, path, withViewSignal(init, view));
  } catch {
    return { ok: false, error: NOT_SENT(core.baseUrl) };
  }
  const exchange = await core.transport.exchange(request, limitMs, view.beforeBody);
  if (!exchange.ok) return { ok: false, error: core.scrub(exchange.error) };
  const { reply } = exchange;
  if (reply.status < 200 || reply.status > 299) return { ok: false, error: core.scrub(httpErrorFrom(reply)) };
  const body = parseSuccessBody(reply);
  if (!body.ok) return { ok: false, error: core.scrub(body.error) };
  return { ok: true, status: reply.status, data: body.data, headers: reply.headers };
}

/** One request whose 2xx body is handed on as it arrives (`ResmonClient.stream`). */
async function sendStreamed(
  core: ClientCore,
  method: MethodName,
  path: string,
  init: (RequestParts & StreamOptions) | undefined,
  limitMs: number,
  view: ViewOptions,
): Promise<StreamResult> {
  const refused = view.refuse?.(method, path);
  if (refused) throw refused;
  if (view.signal?.aborted) return { ok: false, error: CANCELLED(core.baseUrl) };
  const { maxBytes, ...rest } = init ?? {};
  // NaN compares false with every size, so it would read uncapped: a cap that is no number of bytes is refused.
  if (maxBytes !== undefined && !(typeof maxBytes === "number" && maxBytes >= 0)) {
    throw new RangeError(
      `stream's maxBytes is a number of bytes, at least 0 (Infinity for no cap), not ${String(maxBytes)}.`,
    );
  }
  const cap = maxBytes;
  let request: OutgoingRequest;
  try {
    request = core.request(method, path, withViewSignal(rest, view));
  } catch {
    return { ok: false, error: NOT_SENT(core.baseUrl) };
  }
  const opening = await core.transport.open(request, limitMs, cap);
  if (!opening.ok) return { ok: false, error: core.scrub(opening.error) };
  if ("reply" in opening) return { ok: false, error: core.scrub(httpErrorFrom(opening.reply)) };
  return {
    ok: true,
    status: opening.streamed.status,
    headers: opening.streamed.headers,
    body: scrubbed(opening.streamed, core.scrub),
  };
}

/** The body, with any failure's message scrubbed of the token like every other error. */
async function* scrubbed(
  reply: StreamedReply,
  scrub: (error: ApiError) => ApiError,
): AsyncGenerator<Uint8Array> {
  try {
    yield* reply.body;
  } catch (error) {
    if (error instanceof ApiStreamError) throw new ApiStreamError(scrub(error.apiError));
    throw error;
  }
}

/** A GET whose body is read by stream, to at most maxBytes, then parsed as JSON. */
async function readWhole(
  core: ClientCore,
  path: string,
  maxBytes: number,
  limitMs: number,
  view: ViewOptions,
): Promise<ApiResult<unknown>> {
  const opened = await sendStreamed(core, "GET", path, { maxBytes }, limitMs, view);
  if (!opened.ok) return opened;
  const chunks: Uint8Array[] = [];
  try {
    for await (const chunk of opened.body) chunks.push(chunk);
  } catch (error) {
    if (error instanceof ApiStreamError) return { ok: false, error: error.apiError };
    throw error;
  }
  try {
    const data: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    return { ok: true, status: opened.status, data, headers: opened.headers };
  } catch {
    const message = `resmon at ${core.baseUrl} answered GET ${path} with a body that is not JSON.`;
    return { ok: false, error: { kind: "malformed", status: opened.status, message } };
  }
}

/**
 * A verb's init as `send` takes it. The verbs' types accept any init once the path itself is the
 * error (so tsc names the path, not a missing argument); for a served path it is the route's own.
 */
function initOf(init: readonly unknown[]): (RequestParts & StreamOptions) | undefined {
  return init[0] as (RequestParts & StreamOptions) | undefined;
}

/**
 * The client as a caller holds it: each verb typed by the generated paths, every request bounded
 * by `limitMs`. The one cast per verb only names the body type of the route asked for; `send`
 * parsed it as JSON (or text) without knowing the route.
 */
function clientView(core: ClientCore, limitMs: number, view: ViewOptions): ResmonClient {
  const go = (method: MethodName, path: string, init: RequestParts | undefined) =>
    send(core, method, path, init, limitMs, view);
  return {
    baseUrl: core.baseUrl,
    port: core.port,
    GET: <P extends string>(path: ServedPath<P, "get">, ...init: ArgsOf<P, "get">) =>
      go("GET", path, initOf(init)) as Promise<AnswerOf<P, "get">>,
    POST: <P extends string>(path: ServedPath<P, "post">, ...init: ArgsOf<P, "post">) =>
      go("POST", path, initOf(init)) as Promise<AnswerOf<P, "post">>,
    PUT: <P extends string>(path: ServedPath<P, "put">, ...init: ArgsOf<P, "put">) =>
      go("PUT", path, initOf(init)) as Promise<AnswerOf<P, "put">>,
    DELETE: <P extends string>(path: ServedPath<P, "delete">, ...init: ArgsOf<P, "delete">) =>
      go("DELETE", path, initOf(init)) as Promise<AnswerOf<P, "delete">>,
    PATCH: <P extends string>(path: ServedPath<P, "patch">, ...init: ArgsOf<P, "patch">) =>
      go("PATCH", path, initOf(init)) as Promise<AnswerOf<P, "patch">>,
    stream: <M extends MethodName, P extends string>(
      method: M,
      path: ServedPath<P, Lowercase<M>>,
      ...init: StreamArgsOf<P, Lowercase<M>>
    ) =>
      METHODS.includes(method)
        ? sendStreamed(core, method, path, initOf(init), limitMs, view)
        : Promise.resolve<StreamResult>({
            ok: false,
            error: { kind: "transport", message: `No such method: ${String(method)}.` },
          }),
    openApiDocument: (maxBytes = core.maxBodyBytes) =>
      readWhole(core, "/openapi.json", maxBytes, limitMs, view),
    within: (ms: number, options: ViewOptions = view) =>
      clientView(core, Math.max(0, Math.min(ms, limitMs)), options),
    close: () => core.transport.close(),
    toString: () => `ResmonClient(${core.baseUrl})`,
  };
}
