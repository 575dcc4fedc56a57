import {
  type ApiResult,
  DEFAULT_PROBE_TIMEOUT_MS,
  DEFAULT_TIMEOUT_MS,
  discover,
  type ResmonClient,
} from "@resmon/api-client";
import { isWriteRoute, type RouteRef } from "@resmon/mcp-contract";
import { backendUnavailable, ToolError } from "../errors.js";
import { registerSecret } from "../scrub.js";
import {
  describeMs,
  inTheServersWords,
  isForeignNotFound,
  isTokenRefusal,
  mapApiError,
  refusalToError,
} from "./http-errors.js";
import { LARGE_ANSWER_BYTES, type Release, takeLargeAnswer } from "./large-answers.js";
import { readRouteList } from "./route-list.js";
import { notInThisResmon, type ThisResmon, thisResmon } from "./this-resmon.js";

/**
 * The one module that adapts @resmon/api-client for the handlers: lazy discovery, a cached
 * connection while it works, dropped after a failure, what that resmon serves learned once, and
 * each tool call's deadline. How a failure is said (the spec's error codes) is http-errors.ts.
 * No default port, no widening, no hidden retry.
 *
 * The path of every request, handler or scan alike:
 *   handler: ctx.backend.call((c) => c.GET(...))      scan: Call.send (its stage, its wait budget)
 *        └─ CallBackend.call (Backend.forCall): the tool call's deadline (and the scan's, if earlier)
 *             └─ Backend.send: THE one place a request is sent. Finds resmon (discovery, cached),
 *                bounds the client by what is left of the deadline, refuses a route this resmon
 *                does not serve before sending (the client's `refuse` hook: the version gap), and
 *                maps any failure to the one ToolError (mapApiError, http-errors.ts).
 *                  └─ ResmonClient.GET/POST/… (api-client/src/client.ts): builds the request with
 *                     openapi-fetch's serializers, sends it on the transport (undici), parses the
 *                     answer into ApiResult.
 * Options travel as one object (SendOptions: deadline, expectedRuntimeId, the call's WriteLog and
 * its cancellation signal, which the client view puts on every request it sends).
 */

export type DiscoverFn = typeof discover;

export interface BackendOptions {
  /** What discovery reads (config.ts: Config.env). */
  env: Readonly<Record<string, string | undefined>>;
  /** Total time one tool call's requests may take, finding resmon included, before it is backend_unavailable (default 30 s). */
  timeoutMs?: number;
  /** The largest answer read from resmon (default the client's, 6 MiB). */
  maxBodyBytes?: number;
  discoverFn?: DiscoverFn;
}

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
  /** The tool call's place in the order calls began (Backend.forCall): see Backend.connect. */
  begun?: number;
}

/**
 * A tool call's room in the process's budget of large resmon answers, and how long it waited for
 * it: the server's own queue, not counted against the call's deadline.
 */
interface LargeAnswersHeld {
  /** Room taken (or being waited for) once per call: every large answer of the call reads in it. */
  room?: Promise<void>;
  release?: Release;
  /** The call's answer has left: room taken after this is given back at once. */
  done?: boolean;
  waitedMs: number;
  /** When the wait under way began, if one is. */
  waitingSince?: number;
}

/** Ms the call has spent in the server's own queue of large answers, a wait under way included. */
function queuedMs(large: LargeAnswersHeld | undefined): number {
  if (!large) return 0;
  return large.waitedMs + (large.waitingSince === undefined ? 0 : Date.now() - large.waitingSince);
}

/**
 * What became of the requests that change resmon (the contract's WRITE_ROUTES) one tool call sent:
 * each one sent is then accepted (2xx), refused (4xx), or unanswered (no answer in time, a dropped
 * connection, a server error, an answer that could not be read).
 */
export interface WriteLog {
  sent: number;
  accepted: number;
  refused: number;
  unanswered: number;
}

interface Connection {
  client: ResmonClient;
  baseUrl: string;
  /** What discovery's health probe answered: the version and the runtime id the cache is keyed by. */
  health: unknown;
  runtimeId: string | null;
}

/** What one running resmon (one runtime id) serves, learned once: its routes, and its source slugs when first needed. */
interface Known {
  resmon: Promise<ThisResmon>;
  slugs?: Promise<string[] | null>;
  /** Set when its route list could not be read: from then (epoch ms) the next call asks again. */
  askAgainAt?: number;
}

/** A route list that could not be read is asked again by the first call this long after. */
const ROUTE_LIST_RETRY_MS = 10_000;

/** The discovery probe's timeout: resmon's 3 s, never longer than the request timeout itself. */
export function probeTimeoutFor(timeoutMs: number | undefined): number {
  return Math.min(DEFAULT_PROBE_TIMEOUT_MS, timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS);
}

/** How far past its deadline one tool call's requests may run, finding resmon included: the bound is timeout + 1 s, and most of that second is left for a loaded machine to frame and write the answer (a load average of 19 on 2 cores took 300 ms). */
const CALL_SLACK_MS = 250;

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

/** A discovery under way, and how many tool calls had begun when it started. */
interface Discovering {
  found: Promise<Connection>;
  afterCalls: number;
}

export class Backend {
  private connection: Connection | undefined;
  private connecting: Discovering | undefined;
  /** Tool calls begun so far (forCall): a call numbered above a discovery's afterCalls began after it. */
  private callsBegun = 0;
  private readonly options: BackendOptions;
  /** By runtime id: a restart (a new id) is learned afresh, a reconnection to the same one is not. */
  private readonly known = new Map<string, Known>();

  constructor(options: BackendOptions) {
    this.options = options;
  }

  private get timeoutMs(): number {
    return this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
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
    this.callsBegun += 1;
    const begun = this.callsBegun;
    const writes: WriteLog = { sent: 0, accepted: 0, refused: 0, unanswered: 0 };
    const cancel = signal ? { signal } : {};
    const large: LargeAnswersHeld = { waitedMs: 0 };
    return {
      arrivedAt: arrived,
      writes,
      letGo: () => {
        large.done = true;
        large.release?.();
      },
      room: (bytes) => this.roomFor(bytes, large, signal),
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
   * Discover on first need; reuse while it works; concurrent callers share one discovery. A call
   * (numbered `begun`) that joined a discovery begun before it is not failed by that discovery: it
   * may be an earlier call's, left running past that call's deadline and failing for what was wrong
   * then (a probe dripping until the connection dropped), so the call gets one fresh discovery of its
   * own, within its own deadline.
   */
  private async connect(begun?: number): Promise<Connection> {
    if (this.connection) return this.connection;
    const joined = this.discovering();
    if (begun === undefined || begun <= joined.afterCalls) return joined.found;
    try {
      return await joined.found;
    } catch {
      return this.connection ?? this.discovering().found;
    }
  }

  /** The discovery under way, or a new one. */
  private discovering(): Discovering {
    if (!this.connecting) {
      const found = this.discoverOnce().finally(() => {
        this.connecting = undefined;
      });
      this.connecting = { found, afterCalls: this.callsBegun };
    }
    return this.connecting;
  }

  private async discoverOnce(): Promise<Connection> {
    const discoverFn = this.options.discoverFn ?? discover;
    const { timeoutMs, maxBodyBytes } = this.options;
    const found = inTheServersWords(
      await discoverFn({
        env: this.options.env,
        // The probe never outlasts the call's own timeout, so a call that discovers ends within it too.
        probeTimeoutMs: probeTimeoutFor(timeoutMs),
        ...(maxBodyBytes !== undefined ? { maxBodyBytes } : {}),
        // The token the client sends, as read: a second read of the file could find another one.
        onToken: registerSecret,
        ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      }),
    );
    if (!found.ok) throw refusalToError(found.refusal);
    const health = found.health;
    const runtimeId = found.identity.ok ? found.identity.identity.runtime_id : null;
    this.connection = { client: found.client, baseUrl: found.baseUrl, health, runtimeId };
    return this.connection;
  }

  private knownFor(connection: Connection): Known {
    const started = (connection.health as { started_at?: unknown } | null)?.started_at;
    const key = connection.runtimeId ?? `${connection.baseUrl} ${String(started)}`;
    const entry = this.known.get(key);
    if (entry && (entry.askAgainAt === undefined || Date.now() < entry.askAgainAt)) return entry;
    // First sight of this runtime id, or its route list failed a while ago: (re)learn it, keeping the slugs.
    const learning = this.learn(connection);
    const fresh: Known = { resmon: learning.then((l) => l.resmon) };
    if (entry?.slugs) fresh.slugs = entry.slugs;
    this.known.set(key, fresh);
    learning.then(
      (l) => {
        if (!l.settled) fresh.askAgainAt = Date.now() + ROUTE_LIST_RETRY_MS;
      },
      // A failure to reach it is not knowledge: the next call asks again.
      () => {
        if (this.known.get(key) === fresh) this.known.delete(key);
      },
    );
    return fresh;
  }

  /**
   * Its own route list (GET /openapi.json), read with a deadline and a byte ceiling of its own
   * (route-list.ts): a backend that has none, or answers something else, is placed by its version
   * instead; one that could not be read this time is placed so for now and asked again later.
   */
  private async learn(connection: Connection): Promise<{ resmon: ThisResmon; settled: boolean }> {
    const list = await readRouteList(connection.client, this.timeoutMs);
    if ("gone" in list) throw mapApiError(list.gone, connection.baseUrl, {});
    return {
      resmon: thisResmon(connection.health, connection.runtimeId, list.routes),
      settled: list.settled,
    };
  }

  private async resmonWithin(
    deadline: number,
    begun: number,
    signal?: AbortSignal,
    large?: LargeAnswersHeld,
  ): Promise<ThisResmon> {
    const learnt = async () => this.knownFor(await this.connect(begun)).resmon;
    return this.withinDeadline(learnt, deadline, signal, large);
  }

  /** The catalog read is shared by the calls that need it, so one call's cancel leaves it running and only stops waiting. */
  private async sourceSlugsWithin(
    deadline: number,
    begun: number,
    signal?: AbortSignal,
    large?: LargeAnswersHeld,
  ): Promise<string[] | null> {
    const connection = await this.withinDeadline(() => this.connect(begun), deadline, signal, large);
    const entry = this.knownFor(connection);
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
    return this.withinDeadline(() => slugs, deadline, signal, large);
  }

  /**
   * `work`, or the deadline's error once it has passed, or the cancel's as soon as `signal` aborts.
   * The deadline moves on by the time the call waits in the server's own queue (`large`).
   */
  private async withinDeadline<T>(
    work: () => Promise<T>,
    deadline: number,
    signal?: AbortSignal,
    large?: LargeAnswersHeld,
  ): Promise<T> {
    if (signal?.aborted) throw cancelledError();
    if (deadline + queuedMs(large) <= Date.now()) throw this.lateError();
    const running = work();
    // The loser of the race may still fail later; that is not an unhandled rejection.
    running.catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const late = new Promise<never>((_resolve, reject) => {
      const check = () => {
        const left = deadline + queuedMs(large) + CALL_SLACK_MS - Date.now();
        if (left > 0 || large?.waitingSince !== undefined) timer = setTimeout(check, Math.max(left, 50));
        else reject(this.lateError());
      };
      timer = setTimeout(check, deadline - Date.now() + CALL_SLACK_MS);
      onAbort = () => reject(cancelledError());
      signal?.addEventListener("abort", onAbort, { once: true });
    });
    try {
      return await Promise.race([running, late]);
    } finally {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener("abort", onAbort);
    }
  }

  /**
   * Before a large answer's body is read: wait for room in the process's budget, once per call (its
   * other large answers, even ones read at the same time, read in that room: a call never waits for
   * itself). The request's own timeout is paused meanwhile (the client's beforeBody) and the call's
   * deadline moves on by the wait.
   */
  private roomFor(bytes: number, large: LargeAnswersHeld, signal?: AbortSignal): Promise<void> {
    if (bytes < LARGE_ANSWER_BYTES) return Promise.resolve();
    large.room ??= (async () => {
      const since = Date.now();
      large.waitingSince = since;
      try {
        large.release = await takeLargeAnswer(bytes, signal);
        // Work the call left running after its answer (none is known) holds no room.
        if (large.done) large.release();
      } finally {
        large.waitedMs += Date.now() - since;
        large.waitingSince = undefined;
      }
    })();
    return large.room;
  }

  /** Forget the connection: the next call discovers afresh. */
  async forget(): Promise<void> {
    const old = this.connection;
    this.connection = undefined;
    if (old) await old.client.close().catch(() => undefined);
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
    const baseUrl = this.connection?.baseUrl;
    return backendUnavailable(
      `Finding resmon and asking it took longer than ${describeMs(timeoutMs)} in all (RESMON_MCP_TIMEOUT_MS), so this call gave up.`,
      baseUrl ? [baseUrl] : [],
      false,
      { timeout_ms: timeoutMs },
    );
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
      return await this.withinDeadline(
        () => this.sendOnce(send, options, write, flight),
        options.deadline,
        options.signal,
        options.large,
      );
    } finally {
      // Cancelled: the call ends (and frees its place) once its own request has, aborted by the same signal.
      if (options.signal?.aborted) await flight.request?.catch(() => undefined);
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
    const connection = await this.connect(options.begun);
    const resmon = await this.knownFor(connection).resmon;
    const left = options.deadline + queuedMs(options.large) - Date.now();
    if (left <= 0) throw this.lateError();
    const { signal, large } = options;
    const refuse = (method: string, path: string) => {
      const route = { method, path } as RouteRef;
      if (!resmon.serves(route)) return notInThisResmon(resmon, { route });
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
          ...(large ? { beforeBody: (bytes: number) => this.roomFor(bytes, large, signal) } : {}),
        }),
      );
      flight.request = request;
      result = await request;
      write.ended(writeEnd(result));
    } catch (err) {
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
}

/** A call the client cancelled (notifications/cancelled): it sends nothing more. */
function cancelledError(): ToolError {
  return backendUnavailable("The client cancelled this call, so it sent nothing more to resmon.", [], false, {
    reason: "cancelled",
  });
}

/** The request one send has under way, if any. */
interface Flight {
  request?: Promise<unknown>;
}

interface WriteTracker {
  sent(): void;
  ended(how: "accepted" | "refused" | "unanswered"): void;
}

/** Counts one send's write request into the call's WriteLog (none kept without one). */
function writeTracker(writes: WriteLog | undefined): WriteTracker {
  let pending = false;
  return {
    sent() {
      if (!writes) return;
      writes.sent += 1;
      pending = true;
    },
    ended(how) {
      if (!writes || !pending) return;
      pending = false;
      writes[how] += 1;
    },
  };
}

/** How a sent write ended: answered (a 2xx, even one whose body was not the JSON promised), refused (4xx), or no answer. */
function writeEnd(result: ApiResult<unknown>): "accepted" | "refused" | "unanswered" {
  if (result.ok) return "accepted";
  const { error } = result;
  if (error.kind === "malformed" && error.status < 300) return "accepted";
  return error.kind === "http" && error.status < 500 ? "refused" : "unanswered";
}
