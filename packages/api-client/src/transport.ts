/**
 * The one place that touches the network: undici's request API over a keep-alive Agent with a
 * connect timeout, a total timeout that covers the body, and the caller's abort signal. (undici's
 * request costs about half what its fetch does per call, and adds no header of its own beyond Host.)
 * Every failure is classified into an ApiError; nothing here ever includes the token.
 *
 * Only the two modules used are imported, not undici's index, which loads all of undici (fetch,
 * WebSocket, caches, mocks): that was ~70 ms of a stdio server's first tool call (tools/bench/RESULTS.md).
 * undici has no exports map, so these paths are public files; the version is pinned (~7.30) and the
 * tests exercise both.
 */
import { STATUS_CODES } from "node:http";
import type { Dispatcher } from "undici";
import undiciRequest from "undici/lib/api/api-request.js";
import Agent from "undici/lib/dispatcher/agent.js";
import type { ApiError } from "./errors.js";
import { type BodyLimitKind, BodyMeter, type BufferedReply } from "./http-body.js";

export interface TransportOptions {
  baseUrl: string;
  timeoutMs: number;
  connectTimeoutMs: number;
  /** The largest answer body taken, counted while it streams in; past it the connection is destroyed. */
  maxBodyBytes: number;
  /** The most JSON values an answer may hold, counted while it streams in; past it the connection is destroyed. */
  maxJsonValues: number;
}

export type Exchange = { ok: true; reply: BufferedReply } | { ok: false; error: ApiError };

/** A 2xx answer whose body is handed on as it arrives (never held whole), or any other answer, read whole. */
export type Opening =
  | { ok: true; streamed: StreamedReply }
  | { ok: true; reply: BufferedReply }
  | { ok: false; error: ApiError };

export interface StreamedReply {
  status: number;
  headers: Headers;
  /** The body as it arrives; a failure part-way (the deadline, a byte cap, a reset) throws ApiStreamError. */
  body: AsyncIterable<Uint8Array>;
}

/** What iterating a streamed body throws: the failure as an ApiError (never holding the token). */
export class ApiStreamError extends Error {
  constructor(readonly apiError: ApiError) {
    super(apiError.message);
    this.name = "ApiStreamError";
  }
}

/**
 * A body of no declared length (chunked) is read freely to this many bytes, as a small answer is;
 * past it, the rest waits for the view's beforeBody (ViewOptions), asked with the ceiling.
 */
export const UNDECLARED_ASKED_FROM = 1024 * 1024;

class TotalTimeout extends Error {}
class StoppedReading extends Error {}
class BodyTooLarge extends Error {
  constructor(readonly limit: BodyLimitKind) {
    super(limit);
  }
}

/** "16 MiB" for a whole number of MiB, else bytes: the ceiling as a person reads it. */
export function describeBytes(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return Number.isInteger(mib) ? `${mib} MiB` : `${bytes} bytes`;
}

function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== null && typeof current === "object"; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function toHeaders(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return headers;
}

/** A failed exchange as an ApiError, by undici / Node error code. */
export function classifyNetworkError(error: unknown, baseUrl: string, connectTimeoutMs: number): ApiError {
  const code = errorCode(error);
  switch (code) {
    case "UND_ERR_CONNECT_TIMEOUT":
      return {
        kind: "timeout",
        timeoutMs: connectTimeoutMs,
        message: `Could not connect to ${baseUrl} within ${connectTimeoutMs} ms.`,
      };
    case "ECONNREFUSED":
      return {
        kind: "transport",
        message: `Nothing accepted a connection at ${baseUrl} (connection refused).`,
      };
    case "UND_ERR_SOCKET":
    case "ECONNRESET":
    case "EPIPE":
    case "UND_ERR_CLOSED":
    case "UND_ERR_REQ_CONTENT_LENGTH_MISMATCH":
    case "UND_ERR_RES_CONTENT_LENGTH_MISMATCH":
      return {
        kind: "transport",
        message: `The connection to ${baseUrl} closed before a complete answer arrived.`,
      };
    default:
      return {
        kind: "transport",
        message: `The request to ${baseUrl} failed${code ? ` (${code})` : ""}.`,
      };
  }
}

export class Transport {
  readonly #agent: Agent;
  readonly #options: TransportOptions;

  constructor(options: TransportOptions) {
    this.#options = options;
    this.#agent = new Agent({
      connect: { timeout: options.connectTimeoutMs },
      // Well under uvicorn's 5 s keep-alive, so an idle socket is dropped here before the server drops it.
      keepAliveTimeout: 2_000,
      connections: 8,
    });
  }

  /**
   * Read the body chunk by chunk and stop at a limit: a declared Content-Length over the ceiling is
   * refused before any byte is read, an undeclared or lying one, or too many JSON values, as soon as
   * the count passes it. Aborting destroys the socket (undici cannot reuse one with unread body), so
   * nothing more is received. `beforeBody` is awaited first, once a declared length within the
   * ceiling is known; for a body of no declared length (chunked), once its count reaches
   * UNDECLARED_ASKED_FROM, with the ceiling, and the rest is not read until it resolves.
   */
  async #readBody(
    body: AsyncIterable<Uint8Array>,
    headers: Record<string, string | string[] | undefined>,
    abort: AbortController,
    beforeBody?: (bytes: number) => Promise<void>,
  ) {
    const declared = headers["content-length"];
    const length = typeof declared === "string" ? Number(declared) : Number.NaN;
    if (length > this.#options.maxBodyBytes) abort.abort(new BodyTooLarge("bytes"));
    else if (beforeBody && length > 0) await beforeBody(length);
    // Only a body that declared no length is asked about as it grows; a declared one has been asked.
    let unasked = beforeBody !== undefined && Number.isNaN(length);
    const meter = new BodyMeter(headers["content-type"], this.#options);
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of body) {
      const passed = meter.add(chunk);
      if (passed !== undefined) {
        abort.abort(new BodyTooLarge(passed));
        break;
      }
      size += chunk.byteLength;
      chunks.push(chunk);
      if (unasked && size >= UNDECLARED_ASKED_FROM) {
        unasked = false;
        // Nothing says how large it will be: room for the most it may be. The meter above stops it there.
        await beforeBody?.(this.#options.maxBodyBytes);
      }
    }
    if (abort.signal.reason instanceof BodyTooLarge) throw abort.signal.reason;
    return Buffer.concat(chunks, size);
  }

  /** One request on the agent, aborted by `controller` (the deadline, the caller's signal or a limit). */
  async #send(request: Request, controller: AbortController) {
    const hasBody = request.method !== "GET" && request.method !== "HEAD";
    const body = hasBody ? new Uint8Array(await request.arrayBuffer()) : undefined;
    const url = new URL(request.url);
    return undiciRequest.call(this.#agent, {
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: request.method as "GET" | "POST" | "PUT" | "DELETE" | "PATCH",
      headers: Object.fromEntries(request.headers),
      body: body && body.byteLength > 0 ? body : null,
      signal: controller.signal,
    });
  }

  /** The deadline and the caller's abort, wired to one controller; `release` unwires both. */
  #guard(request: Request, timeoutMs: number) {
    const controller = new AbortController();
    const timeOut = () => controller.abort(new TotalTimeout());
    let left = timeoutMs;
    let since = Date.now();
    let timer = setTimeout(timeOut, left);
    const onCallerAbort = () => controller.abort(request.signal.reason);
    if (request.signal.aborted) onCallerAbort();
    else request.signal.addEventListener("abort", onCallerAbort, { once: true });
    const release = () => {
      clearTimeout(timer);
      request.signal.removeEventListener("abort", onCallerAbort);
    };
    /** The timeout stops while `wait` runs (the caller's own wait, not resmon's), then goes on with what was left. */
    const paused = async (wait: Promise<void>) => {
      clearTimeout(timer);
      left -= Date.now() - since;
      try {
        await wait;
      } finally {
        since = Date.now();
        if (!controller.signal.aborted) timer = setTimeout(timeOut, Math.max(0, left));
      }
    };
    return { controller, release, paused };
  }

  /** Why an exchange failed, from what aborted it or the network error. */
  #failure(error: unknown, request: Request, controller: AbortController, timeoutMs: number): ApiError {
    const { connectTimeoutMs, baseUrl } = this.#options;
    if (controller.signal.reason instanceof BodyTooLarge)
      return this.#tooLarge(controller.signal.reason.limit);
    if (controller.signal.reason instanceof TotalTimeout) {
      return {
        kind: "timeout",
        timeoutMs,
        message: `resmon at ${baseUrl} did not answer within ${timeoutMs} ms.`,
      };
    }
    if (request.signal.aborted) {
      return { kind: "transport", message: `The request to ${baseUrl} was cancelled.` };
    }
    return classifyNetworkError(error, baseUrl, connectTimeoutMs);
  }

  /** Send the request and read the whole answer, up to the limits, inside the total timeout (or a shorter one given). */
  async exchange(
    request: Request,
    timeoutMs = this.#options.timeoutMs,
    beforeBody?: (bytes: number) => Promise<void>,
  ): Promise<Exchange> {
    const { controller, release, paused } = this.#guard(request, timeoutMs);
    try {
      const answer = await this.#send(request, controller);
      const wait = beforeBody && ((bytes: number) => paused(beforeBody(bytes)));
      const bytes = await this.#readBody(answer.body, answer.headers, controller, wait);
      return { ok: true, reply: this.#reply(answer.statusCode, answer.headers, bytes) };
    } catch (error) {
      return { ok: false, error: this.#failure(error, request, controller, timeoutMs) };
    } finally {
      release();
    }
  }

  /**
   * Send the request and hand a 2xx body on as it arrives, still inside the total timeout (the
   * deadline covers the whole body, read by the caller). `maxBytes` caps it (default: no cap, since
   * nothing is held); a non-2xx answer is read whole, within the usual limits, to name the error.
   * A caller that stops reading early releases the connection.
   */
  async open(
    request: Request,
    timeoutMs = this.#options.timeoutMs,
    maxBytes = Number.POSITIVE_INFINITY,
  ): Promise<Opening> {
    const { controller, release } = this.#guard(request, timeoutMs);
    let answer: Dispatcher.ResponseData;
    try {
      answer = await this.#send(request, controller);
      if (answer.statusCode < 200 || answer.statusCode > 299) {
        const bytes = await this.#readBody(answer.body, answer.headers, controller);
        release();
        return { ok: true, reply: this.#reply(answer.statusCode, answer.headers, bytes) };
      }
    } catch (error) {
      release();
      return { ok: false, error: this.#failure(error, request, controller, timeoutMs) };
    }
    const source = answer.body;
    const fail = (error: unknown) => new ApiStreamError(this.#failure(error, request, controller, timeoutMs));
    const byteCap = () => new ApiStreamError(this.#tooLarge("bytes", maxBytes));
    async function* body(): AsyncGenerator<Uint8Array> {
      let size = 0;
      let finished = false;
      try {
        for await (const chunk of source) {
          size += chunk.byteLength;
          if (size > maxBytes) {
            controller.abort(new BodyTooLarge("bytes"));
            throw byteCap();
          }
          yield chunk;
        }
        finished = true;
      } catch (error) {
        if (error instanceof ApiStreamError) throw error;
        throw fail(error);
      } finally {
        release();
        // Stopped early (or failed): destroy the socket rather than leave the body unread.
        if (!finished && !controller.signal.aborted) controller.abort(new StoppedReading());
      }
    }
    return {
      ok: true,
      streamed: { status: answer.statusCode, headers: toHeaders(answer.headers), body: body() },
    };
  }

  #reply(
    status: number,
    headers: Record<string, string | string[] | undefined>,
    bytes: Buffer,
  ): BufferedReply {
    return { status, statusText: STATUS_CODES[status] ?? "", headers: toHeaders(headers), bytes };
  }

  #tooLarge(limit: BodyLimitKind, maxBodyBytes = this.#options.maxBodyBytes): ApiError {
    const { baseUrl, maxJsonValues } = this.#options;
    if (limit === "json_values") {
      return {
        kind: "too_large",
        limit,
        limitJsonValues: maxJsonValues,
        message: `resmon at ${baseUrl} sent an answer holding more than this client's cap of ${maxJsonValues} JSON values, so the rest was not read.`,
      };
    }
    return {
      kind: "too_large",
      limit,
      limitBytes: maxBodyBytes,
      message: `resmon at ${baseUrl} sent an answer larger than this client's ceiling of ${describeBytes(maxBodyBytes)}, so the rest was not read.`,
    };
  }

  async close(): Promise<void> {
    await this.#agent.close();
  }
}
