import { type ApiResult, DEFAULT_TIMEOUT_MS, type Discovery, type ResmonClient } from "@resmon/api-client";
import { isWriteRoute, OLDEST_RESMON, type RouteRef, routeSince } from "@resmon/mcp-contract";
import { backendUnavailable, ToolError } from "../errors.js";
import { cancelledError, type Flight, settleCancelled } from "./cancel.js";
import { msLeft, withinDeadline } from "./deadline.js";
import { type Connection, DiscoveryCache, type DiscoveryOptions } from "./discovery.js";
import { describeMs, isForeignNotFound, isTokenRefusal, mapApiError } from "./http-errors.js";
import { type LargeAnswersHeld, letGo, roomFor } from "./large-answers.js";
import { KnownResmons } from "./route-list.js";
import { notInThisResmon, type ThisResmon } from "./this-resmon.js";
import { noWrites, type WriteLog, type WriteTracker, writeEnd, writeTracker } from "./writes.js";

/**
 * The one module that adapts @resmon/api-client for the handlers. The path of every request,
 * handler or scan alike:
 *   handler: ctx.backend.call((c) => c.GET(...))      scan: Call.send (its stage, its wait budget)
 *        └─ CallBackend.call (Backend.forCall): the tool call's deadline (and the scan's, if earlier)
 *             └─ Backend.send: THE one place a request is sent. Finds resmon (discovery.ts, cached),
 *                learns what it serves (route-list.ts: before a write or a route a newer line
 *                added, not before a read every line serves), bounds the client by what is left
 *                of the deadline (deadline.ts), refuses a route this resmon does not serve before
 *                sending (the client's `refuse` hook: the version gap), counts writes (writes.ts), waits for
 *                room before a large body (large-answers.ts), stops on cancel (cancel.ts), and maps
 *                any failure to the one ToolError (mapApiError, http-errors.ts).
 *                  └─ ResmonClient.GET/POST/… (api-client/src/client.ts): builds the request with
 *                     openapi-fetch's serializers, sends it on the transport (node:http), parses the
 *                     answer into ApiResult.
 * Options travel as one object (SendOptions: deadline, expectedRuntimeId, the call's WriteLog and
 * its cancellation signal, which the client view puts on every request it sends).
 */

export { type DiscoverFn, probeTimeoutFor } from "./discovery.js";
export type { WriteLog } from "./writes.js";

/**
 * What the guard throws, before anything is sent, for a route it cannot judge before this resmon's
 * route list is read. Each send makes one request (every handler's and the scan's does), so asking
 * it again once the list is in sends nothing twice. A read every line serves needs no list: it is
 * read when a call first needs it (this throw, requireTool, requireFeature, backend.resmon()).
 */
const LEARN_FIRST = new Error("the route list first");

export type BackendOptions = DiscoveryOptions;

export interface CallOptions {
  /** Sent as ?expected_runtime_id; a structured 409 then means instance_mismatch. */
  expectedRuntimeId?: string;
  /** An end for this request earlier than the tool call's own (ms since the epoch): the scan's wait budget. */
  deadline?: number;
}

/** How `Backend.send` sends one request: by when it must be answered, and how a 409 is read. */
export interface SendOptions {
  /** Ms since the epoch; finding resmon first counts against it too. */
  deadline: number;
  /** Sent as ?expected_runtime_id by the caller; a structured 409 then means instance_mismatch. */
  expectedRuntimeId?: string;
  /** The tool call's record of its writes: each request on a write route sent, and what became of it. */
  writes?: WriteLog;
  /** The tool call's cancellation (notifications/cancelled): nothing is sent after it, and a request in flight is aborted. */
  signal?: AbortSignal;
  /** The tool call's large answers in hand and its time waiting for room (large-answers.ts). */
  large?: LargeAnswersHeld;
  /** The tool call's place in the order calls began (Backend.forCall): see DiscoveryCache.connect. */
  begun?: number;
}

/** What a tool's handler asks resmon through (`Backend.forCall`): every request under its call's deadline. */
export interface CallBackend {
  /** The writes this call sent, and what became of them (a failed write tool's answer says it). */
  readonly writes: WriteLog;
  /** When the tool call arrived (epoch ms): its deadline, and a scan's wait budget, count from then. */
  readonly arrivedAt: number;
  /** Gives back the room of the large answers this call read (once its answer has left stdout). */
  letGo(): void;
  /**
   * Room for `bytes` this call reads whole from elsewhere (a scan's state files), in the same budget
   * and held as its large resmon answers are: resolves once they fit (at once below LARGE_ANSWER_BYTES).
   */
  room(bytes: number): Promise<void>;
  call<T>(send: (client: ResmonClient) => Promise<ApiResult<T>>, options?: CallOptions): Promise<T>;
  /** What this resmon serves (its version, routes, features), learned once per runtime id. */
  resmon(): Promise<ThisResmon>;
  /** The source slugs of this resmon's catalog, read once per runtime id; null when it answered no list. */
  sourceSlugs(): Promise<string[] | null>;
  /** Forget the connection: the next call discovers afresh. */
  forget(): Promise<void>;
}

export class Backend {
  private readonly discovery: DiscoveryCache;
  private readonly known: KnownResmons;
  private readonly timeoutMs: number;

  constructor(options: BackendOptions) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.discovery = new DiscoveryCache(options);
    this.known = new KnownResmons(this.timeoutMs);
  }

  /** Discovery now (the start-up probe): what it found; a connection found is the first call's. */
  probe(): Promise<Discovery> {
    return this.discovery.probe();
  }

  /**
   * The backend as one tool call sees it: one deadline, RESMON_MCP_TIMEOUT_MS from when the call
   * arrived (never later than now), so each of its requests gets only what the earlier ones left and
   * a tool that makes three requests still ends within the timeout + 1 s. Passed down explicitly, not
   * through AsyncLocalStorage: on Node 20 that turns on promise hooks for every promise in the process.
   */
  forCall(signal?: AbortSignal): CallBackend {
    const arrived = Date.now();
    const deadline = arrived + this.timeoutMs;
    const begun = this.discovery.callBegins();
    const writes = noWrites();
    const cancel = signal ? { signal } : {};
    const large: LargeAnswersHeld = { waitedMs: 0 };
    return {
      arrivedAt: arrived,
      writes,
      letGo: () => letGo(large),
      room: (bytes) => roomFor(bytes, large, signal),
      call: (send, options = {}) =>
        this.send(send, {
          ...options,
          ...cancel,
          writes,
          large,
          begun,
          deadline: Math.min(deadline, options.deadline ?? deadline),
        }),
      resmon: () => this.resmonWithin(deadline, begun, signal, large),
      sourceSlugs: () => this.sourceSlugsWithin(deadline, begun, signal, large),
      forget: () => this.forget(),
    };
  }

  /**
   * THE place every request to resmon is sent from (handlers, the scan, the catalog read): finding
   * resmon if needed, then `send` given the client bounded by what is left of `options.deadline`
   * and refusing, before anything is sent, a route this resmon does not serve (the version gap).
   * Answers the data, or throws the one mapped ToolError. Finding resmon counts against the
   * deadline too: a probe and requests that are each slow just under the timeout must not add up.
   */
  private async send<T>(
    send: (client: ResmonClient) => Promise<ApiResult<T>>,
    options: SendOptions,
  ): Promise<T> {
    const write = writeTracker(options.writes);
    const flight: Flight = {};
    try {
      return await this.within(
        () => this.sendOnce(send, options, write, flight),
        options.deadline,
        options.signal,
        options.large,
      );
    } finally {
      await settleCancelled(flight, options.signal);
      // A write the deadline cut short has no answer: counted here, whatever the request does after.
      write.ended("unanswered");
    }
  }

  private async sendOnce<T>(
    send: (client: ResmonClient) => Promise<ApiResult<T>>,
    options: SendOptions,
    write: WriteTracker,
    flight: Flight,
  ): Promise<T> {
    const connection = await this.discovery.connect(options.begun);
    const resmon = this.known.learntFor(connection);
    const left = msLeft(options.deadline, options.large);
    if (left <= 0) throw this.lateError();
    const { signal, large } = options;
    const refuse = (method: string, path: string) => {
      const route = { method, path } as RouteRef;
      if (!resmon) {
        // Not learnt yet: a read every resmon line serves goes at once; anything else waits for the route list.
        if (isWriteRoute(route) || routeSince(route) !== OLDEST_RESMON) return LEARN_FIRST;
      } else if (!resmon.serves(route)) return notInThisResmon(resmon, { route });
      // Cancelled: nothing more leaves, so a write not yet sent is never sent.
      if (signal?.aborted) return cancelledError();
      if (isWriteRoute(route)) write.sent();
      return undefined;
    };
    let result: ApiResult<T>;
    try {
      const request = send(
        connection.client.within(left, {
          refuse,
          ...(signal ? { signal } : {}),
          ...(large ? { beforeBody: (bytes: number) => roomFor(bytes, large, signal) } : {}),
        }),
      );
      flight.request = request;
      result = await request;
      write.ended(writeEnd(result));
    } catch (err) {
      // A route that waits for the route list: nothing was sent; asked again once it is learnt.
      if (err === LEARN_FIRST) {
        await this.learn(connection);
        return this.sendOnce(send, options, write, flight);
      }
      // The guard's refusal (a route this resmon lacks, or the call cancelled): nothing was sent.
      if (err instanceof ToolError) throw err;
      await this.forget();
      throw backendUnavailable(
        "resmon stopped responding part-way through the request.",
        [connection.baseUrl],
        false,
      );
    }
    if (result.ok) return result.data;
    // Cancelled by the client: the connection is fine (no rediscovery), and nothing more is sent.
    if (signal?.aborted) throw cancelledError();
    // The deadline, not resmon's own timeout, cut this request short: said as the whole call's time.
    const bound = Math.min(left, this.timeoutMs);
    const cutByDeadline =
      result.error.kind === "timeout" && result.error.timeoutMs === bound && bound < this.timeoutMs;
    const error = cutByDeadline ? this.lateError() : mapApiError(result.error, connection.baseUrl, options);
    // A request this call's own deadline cut (the scan's wait budget, or time spent finding resmon)
    // says nothing against the connection: kept, so the next call does not find resmon afresh.
    if (
      result.error.kind === "transport" ||
      (result.error.kind === "timeout" && !cutByDeadline) ||
      isTokenRefusal(result.error) ||
      isForeignNotFound(result.error)
    ) {
      await this.forget();
    }
    throw error;
  }

  private async resmonWithin(
    deadline: number,
    begun: number,
    signal?: AbortSignal,
    large?: LargeAnswersHeld,
  ): Promise<ThisResmon> {
    const learnt = async () => this.learn(await this.discovery.connect(begun));
    return this.within(learnt, deadline, signal, large);
  }

  /**
   * What this resmon serves, learnt once per runtime id. A route list that found resmon gone drops
   * the connection, as a request that did would: the next call finds resmon afresh, with its token.
   */
  private learn(connection: Connection): Promise<ThisResmon> {
    return this.known.knownFor(connection).resmon.catch(async (error: unknown) => {
      await this.discovery.forget(connection);
      throw error;
    });
  }

  /** The catalog read is shared by the calls that need it, so one call's cancel leaves it running and only stops waiting. */
  private async sourceSlugsWithin(
    deadline: number,
    begun: number,
    signal?: AbortSignal,
    large?: LargeAnswersHeld,
  ): Promise<string[] | null> {
    const connection = await this.within(() => this.discovery.connect(begun), deadline, signal, large);
    const entry = this.known.knownFor(connection);
    if (!entry.slugs) {
      const reading = this.send<unknown>((c) => c.GET("/api/repositories/catalog"), { deadline }).then(
        (rows) =>
          Array.isArray(rows)
            ? rows
                .map((r) => (r && typeof r === "object" ? (r as Record<string, unknown>).slug : undefined))
                .filter((s): s is string => typeof s === "string")
            : null,
        (err: unknown) => {
          // Only a resmon that is gone fails the call; one that answers no catalog cannot judge slugs.
          if (err instanceof ToolError && err.code === "backend_unavailable") throw err;
          return null;
        },
      );
      entry.slugs = reading;
      reading.catch(() => {
        entry.slugs = undefined;
      });
    }
    const slugs = entry.slugs;
    return this.within(() => slugs, deadline, signal, large);
  }

  private within<T>(
    work: () => Promise<T>,
    deadline: number,
    signal?: AbortSignal,
    large?: LargeAnswersHeld,
  ): Promise<T> {
    return withinDeadline(work, deadline, () => this.lateError(), signal, large);
  }

  /** Forget the connection: the next call discovers afresh. */
  forget(): Promise<void> {
    return this.discovery.forget();
  }

  async close(): Promise<void> {
    await this.forget();
  }

  /** One request outside any tool call, under a deadline of its own (the doctor, scripts). */
  call<T>(send: (client: ResmonClient) => Promise<ApiResult<T>>, options: CallOptions = {}): Promise<T> {
    return this.send(send, { ...options, deadline: Date.now() + this.timeoutMs });
  }

  private lateError(): ToolError {
    const { timeoutMs } = this;
    const baseUrl = this.discovery.current?.baseUrl;
    return backendUnavailable(
      `Finding resmon and asking it took longer than ${describeMs(timeoutMs)} in all (RESMON_MCP_TIMEOUT_MS), so this call gave up.`,
      baseUrl ? [baseUrl] : [],
      false,
      { timeout_ms: timeoutMs },
    );
  }
}
