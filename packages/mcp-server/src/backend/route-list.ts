/**
 * Reading a resmon's own route list (GET /openapi.json, which FastAPI serves) with bounds of its
 * own (issue 34): a short deadline and a byte ceiling, whatever the tool call's timeout, so a route
 * list that drips or never ends costs a call seconds, not its whole timeout. What could not be read
 * is said to be unsettled, so the caller asks again later instead of keeping the failure as the answer.
 * What was learnt is kept by runtime id (KnownResmons).
 */
import type { ApiError, ResmonClient } from "@resmon/api-client";
import type { Connection } from "./discovery.js";
import { mapApiError } from "./http-errors.js";
import { routesOfOpenapi, type ThisResmon, thisResmon } from "./this-resmon.js";

/** resmon's own route list is 222 KB (../shared/resmon/openapi.json, 184 operations); FastAPI serves it at once. */
export const ROUTE_LIST_TIMEOUT_MS = 3_000;
export const ROUTE_LIST_MAX_BYTES = 2 * 1024 * 1024;

export type RouteList =
  /** settled: its answer, kept for this runtime id (a list, or none served: 404/405, or one past the ceiling). */
  | { routes: Set<string> | null; settled: true }
  /** Not read this time (slow, a 5xx, a cut or malformed body): placed by its version for now, asked again later. */
  | { routes: null; settled: false; why: string }
  /** Nothing answered at all: resmon is gone, which the call reports. */
  | { gone: ApiError };

export async function readRouteList(client: ResmonClient, timeoutMs: number): Promise<RouteList> {
  const read = await client
    .within(Math.min(ROUTE_LIST_TIMEOUT_MS, timeoutMs))
    .openApiDocument(ROUTE_LIST_MAX_BYTES);
  if (!read.ok) {
    const { error } = read;
    if (error.kind === "transport") return { gone: error };
    if (error.kind === "too_large") return { routes: null, settled: true };
    if (error.kind === "http" && (error.status === 404 || error.status === 405))
      return { routes: null, settled: true };
    return { routes: null, settled: false, why: error.kind === "http" ? `HTTP ${error.status}` : error.kind };
  }
  // A document that is no OpenAPI one (no paths) is an answer too: placed by its version.
  return { routes: routesOfOpenapi(read.data), settled: true };
}

/** What one running resmon (one runtime id) serves, learned once: its routes, and its source slugs when first needed. */
export interface Known {
  resmon: Promise<ThisResmon>;
  /** The same, once learnt: what a request can be judged by without waiting. */
  learnt?: ThisResmon;
  slugs?: Promise<string[] | null>;
  /** Set when its route list could not be read: from then (epoch ms) the next call asks again. */
  askAgainAt?: number;
}

/** A route list that could not be read is asked again by the first call this long after. */
const ROUTE_LIST_RETRY_MS = 10_000;

/** A resmon is known by its runtime id, or (reporting none) by its address and start time. */
function keyOf(connection: Connection): string {
  const started = (connection.health as { started_at?: unknown } | null)?.started_at;
  return connection.runtimeId ?? `${connection.baseUrl} ${String(started)}`;
}

/** What each resmon serves, by runtime id: a restart (a new id) is learned afresh, a reconnection to the same one is not. */
export class KnownResmons {
  private readonly known = new Map<string, Known>();

  constructor(private readonly timeoutMs: number) {}

  knownFor(connection: Connection): Known {
    const key = keyOf(connection);
    const entry = this.current(key);
    if (entry) return entry;
    // First sight of this runtime id, or its route list failed a while ago: (re)learn it, keeping the slugs.
    const old = this.known.get(key);
    const learning = this.learn(connection);
    const fresh: Known = { resmon: learning.then((l) => l.resmon) };
    // Maybe awaited by no one: a call that reads only the catalog's slugs (sourceSlugsWithin) starts it.
    fresh.resmon.catch(() => undefined);
    if (old?.slugs) fresh.slugs = old.slugs;
    this.known.set(key, fresh);
    learning.then(
      (l) => {
        fresh.learnt = l.resmon;
        if (!l.settled) fresh.askAgainAt = Date.now() + ROUTE_LIST_RETRY_MS;
      },
      // A failure to reach it is not knowledge: the next call asks again.
      () => {
        if (this.known.get(key) === fresh) this.known.delete(key);
      },
    );
    return fresh;
  }

  /** What is learnt of this connection's resmon now, if anything, without asking it. */
  learntFor(connection: Connection): ThisResmon | undefined {
    return this.current(keyOf(connection))?.learnt;
  }

  /** The entry for a runtime id unless its route list failed long enough ago to be asked again. */
  private current(key: string): Known | undefined {
    const entry = this.known.get(key);
    return entry && (entry.askAgainAt === undefined || Date.now() < entry.askAgainAt) ? entry : undefined;
  }

  /**
   * Its own route list, read with a deadline and a byte ceiling of its own: a backend that has
   * none, or answers something else, is placed by its version instead; one that could not be read
   * this time is placed so for now and asked again later.
   */
  private async learn(connection: Connection): Promise<{ resmon: ThisResmon; settled: boolean }> {
    const list = await readRouteList(connection.client, this.timeoutMs);
    if ("gone" in list) throw mapApiError(list.gone, connection.baseUrl, {});
    return {
      resmon: thisResmon(connection.health, connection.runtimeId, list.routes),
      settled: list.settled,
    };
  }
}
