import { randomUUID } from "node:crypto";
import type { Corpus } from "./corpus.js";
import { SourceModes } from "./coverage.js";
import type { Json, Paper, Store } from "./model.js";
import { buildStore, corpusStore, type SeedName } from "./seed/index.js";
import { embed } from "./vectors.js";

export type IdentityMode = "normal" | "missing" | "malformed" | "unsupported" | "null_schema";
/** ready: ranks by meaning; no_model: declines (nothing configured); extension_unavailable: the vector index will not load. */
export type EmbeddingState = "ready" | "no_model" | "extension_unavailable";

export interface Admission {
  maxConcurrent: number;
  queueLimit: number;
  runDurationMs: number;
}

/** How runs are being steered by a test: see Testkit.holdRuns, fillSlots and failSweeps. */
export interface RunControls {
  /** While true, a run whose duration is up waits in `due` instead of finishing. */
  holding: boolean;
  due: Set<number>;
  /** Runs started by fillSlots: they end only when freeSlots() is called. */
  pinned: Set<number>;
  /** How many runs still to start will end failed (Infinity: every one until switched off). */
  failNext: number;
  /** Runs started while failNext was above zero. */
  doomed: Set<number>;
}

export function newRunControls(): RunControls {
  return { holding: false, due: new Set(), pinned: new Set(), failNext: 0, doomed: new Set() };
}

export const SCHEMA_VERSION = 21;
export const BACKEND_VERSION = "2.3.0";

/** What one running backend process holds: the store plus everything that is per-start. */
export class Backend {
  store: Store;
  runtimeId = randomUUID();
  /** What health reports as `version`: the release played (releases.ts). */
  version = BACKEND_VERSION;
  startedAt = new Date().toISOString().replace("Z", "+00:00");
  identityMode: IdentityMode = "normal";
  /** Health as the public 1.6/1.7 build answered it: status, pid, started_at, version, nothing else. */
  publicHealth = false;
  embeddingState: EmbeddingState = "ready";
  /** When set, only these papers count as embedded (to reach the "nothing else is embedded" answer). */
  embeddedOnly: Set<number> | null = null;
  admission: Admission = { maxConcurrent: 3, queueLimit: 16, runDurationMs: 1500 };
  /** Executions holding an admission slot. */
  active = new Set<number>();
  /** Routine fires waiting for a slot, oldest first. */
  queue: number[] = [];
  /** routine id -> execution holding its claim. */
  claims = new Map<number, number>();
  timers = new Set<NodeJS.Timeout>();
  /** Scan-test controls (runner.ts): runs are held, slots pinned, runs made to fail. */
  runControls: RunControls = newRunControls();
  /** How each source answers the runs that ask it (Testkit.setSourceOutcome); kept across a restart. */
  readonly sourceModes = new SourceModes();
  private readonly vectors = new Map<number, Float64Array>();

  constructor(
    readonly seed: SeedName,
    /** A records file's works as the documents (`--corpus`): sweeps, search and similar rank over them. */
    readonly corpus: Corpus | null = null,
  ) {
    this.store = corpus ? corpusStore(corpus) : buildStore(seed);
  }

  /** A restart: new runtime id, running work ends interrupted the way resmon's startup reconciles it. */
  restart(): void {
    this.clearTimers();
    const now = nowUtc();
    for (const id of this.active) {
      const e = this.store.executions.get(id);
      if (e && e.status === "running") {
        e.status = "interrupted";
        e.interrupted_reason = "daemon_restart";
        e.end_time = now;
      }
    }
    this.active.clear();
    // The runs the controls named are over; the test's settings (holding, failing) stay.
    const { holding, failNext } = this.runControls;
    this.runControls = { ...newRunControls(), holding, failNext };
    this.queue = [];
    this.claims.clear();
    this.runtimeId = randomUUID();
    this.startedAt = now;
  }

  clearTimers(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  later(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
  }

  /** A paper's stored vector (derived once from its title and abstract). */
  vectorOf(p: Paper): Float64Array {
    let v = this.vectors.get(p.id);
    if (!v) {
      v = embed(`${p.title} ${p.abstract ?? ""}`);
      this.vectors.set(p.id, v);
    }
    return v;
  }

  isEmbedded(id: number): boolean {
    if (this.embeddingState !== "ready") return false;
    if (this.embeddedOnly) return this.embeddedOnly.has(id);
    return this.store.embedded.has(id);
  }

  identity(): Json | undefined {
    const base = {
      contract_version: 1,
      runtime_id: this.runtimeId,
      schema_version: SCHEMA_VERSION,
      corpus_id: null,
      build_id: null,
    };
    switch (this.identityMode) {
      case "normal":
        return base;
      case "missing":
        return undefined;
      case "malformed":
        return { ...base, runtime_id: "not-a-runtime-id" };
      case "unsupported":
        return { ...base, contract_version: 2 };
      case "null_schema":
        return { ...base, schema_version: null };
    }
  }
}

export function nowUtc(): string {
  return new Date().toISOString().replace("Z", "+00:00");
}
