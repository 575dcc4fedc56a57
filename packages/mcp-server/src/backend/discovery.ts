/**
 * The discovery cache: resmon is found on first need (api-client's discover), the connection kept
 * while it works and dropped after a failure; concurrent callers share one discovery. No default
 * port, no widening, no hidden retry.
 */
import { DEFAULT_PROBE_TIMEOUT_MS, type Discovery, discover, type ResmonClient } from "@resmon/api-client";
import { registerSecret } from "../scrub.js";
import { inTheServersWords, refusalToError } from "./http-errors.js";

export type DiscoverFn = typeof discover;

export interface DiscoveryOptions {
  /** What discovery reads (config.ts: Config.env). */
  env: Readonly<Record<string, string | undefined>>;
  /** Total time one tool call's requests may take, finding resmon included, before it is backend_unavailable (default 30 s). */
  timeoutMs?: number;
  /** The largest answer read from resmon (default the client's, 6 MiB). */
  maxBodyBytes?: number;
  discoverFn?: DiscoverFn;
}

export interface Connection {
  client: ResmonClient;
  baseUrl: string;
  /** What discovery's health probe answered: the version and the runtime id the cache is keyed by. */
  health: unknown;
  runtimeId: string | null;
}

/** The discovery probe's timeout: resmon's 3 s, never longer than the request timeout itself. */
export function probeTimeoutFor(timeoutMs: number | undefined): number {
  return Math.min(DEFAULT_PROBE_TIMEOUT_MS, timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS);
}

/** A discovery under way (what it found, and the connection), and how many tool calls had begun when it started. */
interface Discovering {
  raw: Promise<Discovery>;
  found: Promise<Connection>;
  afterCalls: number;
}

export class DiscoveryCache {
  private connection: Connection | undefined;
  private connecting: Discovering | undefined;
  /** Tool calls begun so far (callBegins): a call numbered above a discovery's afterCalls began after it. */
  private callsBegun = 0;

  constructor(private readonly options: DiscoveryOptions) {}

  /** The connection in hand, if any. */
  get current(): Connection | undefined {
    return this.connection;
  }

  /** Numbers a tool call in the order calls began (see connect). */
  callBegins(): number {
    this.callsBegun += 1;
    return this.callsBegun;
  }

  /**
   * Discover on first need; reuse while it works; concurrent callers share one discovery. A call
   * (numbered `begun`) that joined a discovery begun before it is not failed by that discovery: it
   * may be an earlier call's, left running past that call's deadline and failing for what was wrong
   * then (a probe dripping until the connection dropped), so the call gets one fresh discovery of its
   * own, within its own deadline.
   */
  async connect(begun?: number): Promise<Connection> {
    if (this.connection) return this.connection;
    const joined = this.discovering();
    if (begun === undefined || begun <= joined.afterCalls) return joined.found;
    try {
      return await joined.found;
    } catch {
      return this.connection ?? this.discovering().found;
    }
  }

  /** Forget the connection (only `which`, when given: not a newer one): the next call discovers afresh. */
  async forget(which?: Connection): Promise<void> {
    if (which && which !== this.connection) return;
    const old = this.connection;
    this.connection = undefined;
    this.found = undefined;
    if (old) await old.client.close().catch(() => undefined);
  }

  /**
   * A discovery now, for the start-up probe: what it found, a refusal included. A connection found is
   * kept for the calls, which therefore find resmon as the probe did, once, not twice.
   */
  probe(): Promise<Discovery> {
    if (this.connection && this.found) return this.found;
    const { raw, found } = this.discovering();
    found.catch(() => undefined);
    return raw;
  }

  /** What the discovery that made the connection found. */
  private found: Promise<Discovery> | undefined;

  /** The discovery under way, or a new one. */
  private discovering(): Discovering {
    if (!this.connecting) {
      const raw = this.discoverOnce();
      const found = raw
        .then((d) => this.keep(d, raw))
        .finally(() => {
          this.connecting = undefined;
        });
      this.connecting = { raw, found, afterCalls: this.callsBegun };
    }
    return this.connecting;
  }

  /** A discovery's connection, kept; a refusal thrown as the call's error. */
  private keep(found: Discovery, raw: Promise<Discovery>): Connection {
    if (!found.ok) throw refusalToError(found.refusal);
    const health = found.health;
    const runtimeId = found.identity.ok ? found.identity.identity.runtime_id : null;
    this.connection = { client: found.client, baseUrl: found.baseUrl, health, runtimeId };
    this.found = raw;
    return this.connection;
  }

  private async discoverOnce(): Promise<Discovery> {
    const discoverFn = this.options.discoverFn ?? discover;
    const { timeoutMs, maxBodyBytes } = this.options;
    return inTheServersWords(
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
  }
}
