import type { Corpus } from "../corpus.js";
import type { JsonObject, Store } from "../model.js";
import { createRng } from "../prng.js";
import { fixtureExecutions, historyExecutions } from "./executions.js";
import { lifecycle } from "./lifecycle.js";
import { buildPapers } from "./papers.js";
import { matches, profiles } from "./profiles.js";
import { deliveries, routines } from "./routines.js";
import { defaultSettings } from "./settings.js";
import { watchdogFindings } from "./watchdog.js";

export type SeedName = "demo" | "small";

const SIZES: Record<SeedName, { papers: number; graphRun: number; extraRuns: number }> = {
  demo: { papers: 3000, graphRun: 420, extraRuns: 40 },
  small: { papers: 48, graphRun: 14, extraRuns: 4 },
};

export const SEED_NOW = "2026-11-30T06:00:00+00:00";

export interface SeedSummary {
  papers: number;
  embedded: number;
  routines: number;
  executions: number;
  profiles: number;
  matches: number;
}

/** The whole seeded store. One PRNG stream feeds papers, then vectors, then the run history, in that order. */
export function buildStore(seed: SeedName): Store {
  const size = SIZES[seed];
  const rng = createRng(seed === "demo" ? 20261130 : 424242);
  const papers = buildPapers(rng, size.papers);
  const paperById = new Map(papers.map((p) => [p.id, p]));
  // Roughly four in five papers carry a vector; papers 3 and 4 never do (named "not embedded" cases).
  const embedded = new Set<number>();
  for (const p of papers) if (p.id !== 3 && p.id !== 4 && (p.id <= 8 || rng.chance(0.8))) embedded.add(p.id);

  const store: Store = {
    papers,
    paperById,
    embedded,
    routines: new Map(routines().map((r) => [r.id, r])),
    executions: new Map(),
    profiles: new Map(profiles().map((p) => [p.id, p])),
    matches: matches(papers),
    lifecycle: lifecycle(papers),
    findings: watchdogFindings(),
    settings: defaultSettings(),
    next: { routine: 6, execution: 0, profile: 5, missedFire: 4, delivery: 0 },
    seedNow: SEED_NOW,
  };
  for (const e of [...fixtureExecutions(), ...historyExecutions(rng, papers, size)])
    store.executions.set(e.id, e);
  store.next.execution = Math.max(...store.executions.keys()) + 1;
  deliveries(store);

  for (const r of store.routines.values()) {
    const runs = [...store.executions.values()].filter((e) => e.routine_id === r.id);
    const last = runs.sort((a, b) => (a.start_time < b.start_time ? 1 : -1))[0];
    r.last_executed_at = last ? last.start_time : null;
  }
  return store;
}

/**
 * A store whose documents are a records file's (corpus.ts): the small seed's routines, profiles and
 * settings, and a history that starts empty (no runs, matches or lifecycle events that would name
 * the seed's own papers).
 */
export function corpusStore(corpus: Corpus): Store {
  const store = buildStore("small");
  store.papers = corpus.papers;
  store.paperById = new Map(corpus.papers.map((p) => [p.id, p]));
  store.embedded = new Set(corpus.papers.map((p) => p.id));
  store.executions = new Map();
  store.next.execution = 1;
  store.matches = [];
  store.lifecycle = new Map();
  store.findings = [];
  for (const r of store.routines.values()) {
    r.deliveries = [];
    r.last_executed_at = null;
  }
  return store;
}

export function summarize(store: Store): SeedSummary {
  return {
    papers: store.papers.length,
    embedded: store.embedded.size,
    routines: store.routines.size,
    executions: store.executions.size,
    profiles: store.profiles.size,
    matches: store.matches.length,
  };
}

/** A seed's row counts without starting a stand-in (the testkit README's seed table quotes them). */
export function seedSummary(seed: SeedName): SeedSummary {
  return summarize(buildStore(seed));
}

export type { JsonObject };
