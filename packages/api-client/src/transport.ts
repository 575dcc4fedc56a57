/**
 * The one place that touches the network: node:http over a keep-alive Agent, with a connect
 * timeout, a total timeout that covers the body, and the caller's abort signal. Every failure is
 * classified into an ApiError; nothing here ever includes the token.
 *
 * node:http rather than fetch or undici: resmon speaks HTTP/1.1 on loopback, and Node's own client
 * is already loaded with Node. undici added 476 KB to the server's bundle (compiled at every start)
 * and, at the first request, node:http2 (~19 ms); Node's fetch classes load Node's internal undici
 * the first time one is touched (~25 ms). Both fell on a server's first tool call.
 */
import { Agent, request as httpRequest, type IncomingMessage, STATUS_CODES } from "node:http";
import { AnswerHeaders } from "./answer-headers.js";
import type { ApiError } from "./errors.js";
import { type BodyLimitKind, BodyMeter, type BufferedReply } from "./http-body.js";
import type { OutgoingRequest } from "./request.js";

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
  headers: AnswerHeaders;
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

/** At most this many connections to resmon at once; more requests wait for one. */
const MAX_CONNECTIONS = 8;
/** An idle connection is closed after this long: well under uvicorn's 5 s, so it is never resmon that drops it first. */
const IDLE_MS = 2_000;

class TotalTimeout extends Error {}
class ConnectTimeout extends Error {}
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

/** A failed exchange as an ApiError, by Node's error code. */
export function classifyNetworkError(error: unknown, baseUrl: string): ApiError {
  const code = errorCode(error);
  switch (code) {
    case "ECONNREFUSED":
      return {
        kind: "transport",
        message: `Nothing accepted a connection at ${baseUrl} (connection refused).`,
      };
    // ECONNRESET is also Node's "socket hang up" (closed before the answer's head) and "aborted"
    // (closed part-way through its body).
    case "ECONNRESET":
    case "EPIPE":
    case "ERR_STREAM_PREMATURE_CLOSE":
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

/** One turn of the event loop: what this process has been sent meanwhile is read first. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

export class Transport {
  readonly #agent = new Agent({
    keepAlive: true,
    maxSockets: MAX_CONNECTIONS,
    // The idle timeout: Node's agent closes a pooled socket that stays idle this long.
    timeout: IDLE_MS,
    // The oldest idle socket first: the agent skips sockets already closed only from the front.
    scheduling: "fifo",
  });
  readonly #options: TransportOptions;
  readonly #host: string;
  readonly #port: number;
  /** Requests begun and not yet done (a streamed body until it is read or released). */
  #inFlight = 0;
  #closing: Promise<void> | undefined;
  #idle: (() => void) | undefined;

  constructor(options: TransportOptions) {
    this.#options = options;
    const base = new URL(options.baseUrl);
    this.#host = base.hostname;
    this.#port = Number(base.port || 80);
  }

  /**
   * Read the body chunk by chunk and stop at a limit: a declared Content-Length over the ceiling is
   * refused before any byte is read, an undeclared or lying one, or too many JSON values, as soon as
   * the count passes it. Aborting destroys the socket (one with unread body cannot be reused), so
   * nothing more is received. `beforeBody` is awaited first, once a declared length within the
   * ceiling is known; for a body of no declared length (chunked), once its count reaches
   * UNDECLARED_ASKED_FROM, with the ceiling, and the rest is not read until it resolves.
   */
  async #readBody(
    answer: IncomingMessage,
    abort: AbortController,
    beforeBody?: (bytes: number) => Promise<void>,
  ) {
    const declared = answer.headers["content-length"];
    const length = typeof declared === "string" ? Number(declared) : Number.NaN;
    if (length > this.#options.maxBodyBytes) {
      abort.abort(new BodyTooLarge("bytes"));
      throw abort.signal.reason;
    }
    if (beforeBody && length > 0) await beforeBody(length);
    // Only a body that declared no length is asked about as it grows; a declared one has been asked.
    let unasked = beforeBody !== undefined && Number.isNaN(length);
    const meter = new BodyMeter(answer.headers["content-type"], this.#options);
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of answer as AsyncIterable<Buffer>) {
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

  /**
   * One request on the agent, aborted by `controller` (the deadline, the caller's signal, the connect
   * timeout or a limit): the answer once its head has arrived.
   */
  async #send(request: OutgoingRequest, controller: AbortController): Promise<IncomingMessage> {
    // A pooled socket may be one resmon closed while this process did not turn its event loop (a
    // long synchronous stretch): until Node reads that close, the agent hands the socket out and the
    // request fails on it. Two turns read it whichever phase this runs in; the agent then skips it.
    if (Object.keys(this.#agent.freeSockets).length > 0) {
      await turn();
      await turn();
    }
    const { signal } = controller;
    return new Promise<IncomingMessage>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const { method, path, headers, body } = request;
      const req = httpRequest(
        { agent: this.#agent, host: this.#host, port: this.#port, method, path, headers },
        resolve,
      );
      req.on("error", reject);
      req.once("socket", (socket) => {
        if (!socket.connecting) return;
        const timer = setTimeout(
          () => controller.abort(new ConnectTimeout()),
          this.#options.connectTimeoutMs,
        );
        const clear = () => clearTimeout(timer);
        socket.once("connect", clear);
        req.once("close", clear);
      });
      // Destroyed without an error: one given here is re-emitted by the socket, and if the answer
      // ended in the same tick Node has already taken the socket's error listener off (uncaught).
      const onAbort = () => {
        req.destroy();
        reject(signal.reason);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      req.end(body);
    });
  }

  /** The deadline and the caller's abort, wired to one controller; `release` unwires both. */
  #guard(request: OutgoingRequest, timeoutMs: number) {
    const controller = new AbortController();
    const timeOut = () => controller.abort(new TotalTimeout());
    let left = timeoutMs;
    let since = Date.now();
    let timer = setTimeout(timeOut, left);
    const callerSignal = request.signal;
    const onCallerAbort = () => controller.abort(callerSignal?.reason);
    if (callerSignal?.aborted) onCallerAbort();
    else callerSignal?.addEventListener("abort", onCallerAbort, { once: true });
    this.#inFlight += 1;
    let released = false;
    const release = () => {
      clearTimeout(timer);
      callerSignal?.removeEventListener("abort", onCallerAbort);
      if (released) return;
      released = true;
      this.#inFlight -= 1;
      if (this.#inFlight === 0) this.#idle?.();
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
  #failure(
    error: unknown,
    request: OutgoingRequest,
    controller: AbortController,
    timeoutMs: number,
  ): ApiError {
    const { connectTimeoutMs, baseUrl } = this.#options;
    const reason: unknown = controller.signal.reason;
    if (reason instanceof BodyTooLarge) return this.#tooLarge(reason.limit);
    if (reason instanceof ConnectTimeout) {
      return {
        kind: "timeout",
        timeoutMs: connectTimeoutMs,
        message: `Could not connect to ${baseUrl} within ${connectTimeoutMs} ms.`,
      };
    }
    if (reason instanceof TotalTimeout) {
      return {
        kind: "timeout",
        timeoutMs,
        message: `resmon at ${baseUrl} did not answer within ${timeoutMs} ms.`,
      };
    }
    if (request.signal?.aborted) {
      return { kind: "transport", message: `The request to ${baseUrl} was cancelled.` };
    }
    return classifyNetworkError(error, baseUrl);
  }

  /** A request after close() is not sent. */
  #closedError(): ApiError {
    return {
      kind: "transport",
      message: `The client for ${this.#options.baseUrl} was closed, so the request was not sent.`,
    };
  }

  /** Send the request and read the whole answer, up to the limits, inside the total timeout (or a shorter one given). */
  async exchange(
    request: OutgoingRequest,
    timeoutMs = this.#options.timeoutMs,
    beforeBody?: (bytes: number) => Promise<void>,
  ): Promise<Exchange> {
    if (this.#closing) return { ok: false, error: this.#closedError() };
    const { controller, release, paused } = this.#guard(request, timeoutMs);
    try {
      const answer = await this.#send(request, controller);
      const wait = beforeBody && ((bytes: number) => paused(beforeBody(bytes)));
      const bytes = await this.#readBody(answer, controller, wait);
      return { ok: true, reply: this.#reply(answer, bytes) };
    } catch (error) {
      // Whatever failed (a beforeBody that threw included), the socket is not left with unread body.
      if (!controller.signal.aborted) controller.abort(new StoppedReading());
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
    request: OutgoingRequest,
    timeoutMs = this.#options.timeoutMs,
    maxBytes = Number.POSITIVE_INFINITY,
  ): Promise<Opening> {
    if (this.#closing) return { ok: false, error: this.#closedError() };
    const { controller, release } = this.#guard(request, timeoutMs);
    let answer: IncomingMessage;
    try {
      answer = await this.#send(request, controller);
      const status = answer.statusCode ?? 0;
      if (status < 200 || status > 299) {
        const bytes = await this.#readBody(answer, controller);
        release();
        return { ok: true, reply: this.#reply(answer, bytes) };
      }
    } catch (error) {
      if (!controller.signal.aborted) controller.abort(new StoppedReading());
      release();
      return { ok: false, error: this.#failure(error, request, controller, timeoutMs) };
    }
    // Read to its end or destroyed (the deadline, a reset), the body no longer holds the client open.
    answer.once("close", release);
    const source = answer as AsyncIterable<Buffer>;
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
      streamed: {
        status: answer.statusCode ?? 0,
        headers: new AnswerHeaders(answer.headersDistinct),
        body: body(),
      },
    };
  }

  #reply(answer: IncomingMessage, bytes: Buffer): BufferedReply {
    const status = answer.statusCode ?? 0;
    return {
      status,
      statusText: STATUS_CODES[status] ?? "",
      headers: new AnswerHeaders(answer.headersDistinct),
      bytes,
    };
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

  /** No new request is sent; those under way finish (a streamed body until read or released), then every socket is closed. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      if (this.#inFlight > 0) await new Promise<void>((resolve) => (this.#idle = resolve));
      this.#agent.destroy();
    })();
    return this.#closing;
  }
}
