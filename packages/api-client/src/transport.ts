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

class TotalTimeout extends Error {}
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
   * nothing more is received.
   */
  async #readBody(
    body: AsyncIterable<Uint8Array>,
    headers: Record<string, string | string[] | undefined>,
    abort: AbortController,
  ) {
    const declared = headers["content-length"];
    const length = typeof declared === "string" ? Number(declared) : Number.NaN;
    if (length > this.#options.maxBodyBytes) abort.abort(new BodyTooLarge("bytes"));
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
    }
    if (abort.signal.reason instanceof BodyTooLarge) throw abort.signal.reason;
    return Buffer.concat(chunks, size);
  }

  /** Send the request and read the whole answer, up to the limits, inside the total timeout (or a shorter one given). */
  async exchange(request: Request, timeoutMs = this.#options.timeoutMs): Promise<Exchange> {
    const { connectTimeoutMs, baseUrl } = this.#options;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new TotalTimeout()), timeoutMs);
    const onCallerAbort = () => controller.abort(request.signal.reason);
    if (request.signal.aborted) onCallerAbort();
    else request.signal.addEventListener("abort", onCallerAbort, { once: true });
    try {
      const hasBody = request.method !== "GET" && request.method !== "HEAD";
      const body = hasBody ? new Uint8Array(await request.arrayBuffer()) : undefined;
      const url = new URL(request.url);
      const answer = await undiciRequest.call(this.#agent, {
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: request.method as "GET" | "POST" | "PUT",
        headers: Object.fromEntries(request.headers),
        body: body && body.byteLength > 0 ? body : null,
        signal: controller.signal,
      });
      const bytes = await this.#readBody(answer.body, answer.headers, controller);
      return {
        ok: true,
        reply: {
          status: answer.statusCode,
          statusText: STATUS_CODES[answer.statusCode] ?? "",
          headers: toHeaders(answer.headers),
          bytes,
        },
      };
    } catch (error) {
      if (controller.signal.reason instanceof BodyTooLarge) {
        return { ok: false, error: this.#tooLarge(controller.signal.reason.limit) };
      }
      if (controller.signal.reason instanceof TotalTimeout) {
        return {
          ok: false,
          error: {
            kind: "timeout",
            timeoutMs,
            message: `resmon at ${baseUrl} did not answer within ${timeoutMs} ms.`,
          },
        };
      }
      if (request.signal.aborted) {
        return {
          ok: false,
          error: { kind: "transport", message: `The request to ${baseUrl} was cancelled.` },
        };
      }
      return { ok: false, error: classifyNetworkError(error, baseUrl, connectTimeoutMs) };
    } finally {
      clearTimeout(timer);
      request.signal.removeEventListener("abort", onCallerAbort);
    }
  }

  #tooLarge(limit: BodyLimitKind): ApiError {
    const { baseUrl, maxBodyBytes, maxJsonValues } = this.#options;
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
