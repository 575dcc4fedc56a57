import type { GapRule } from "./profile.js";
import { THIN_BELOW } from "./profile.js";
import type { Batch, Candidate, RetrievalTask } from "./state.js";

export interface CoverageSummary {
  /** Screened papers (score ≥ 1) that the model said meet each criterion. */
  hits_per_criterion: Record<string, number>;
  thin_criteria: string[];
  /** Candidates each query contributed (a paper found by several queries counts for each). */
  pool_per_query: Record<string, number>;
  /** Per sweep: resmon's own coverage account, verbatim. */
  sweeps: {
    query_id: string;
    round: number;
    execution_id: number | null;
    status: RetrievalTask["status"];
    error?: string | null;
    summary: string | null;
    sources: Record<string, unknown>[];
  }[];
  /** Sources that did not answer some sweep: a coverage risk, never "no papers". */
  silent_sources: { source: string; query_ids: string[] }[];
  corpus: {
    query_id: string;
    round: number;
    sort_served: string | null;
    similarity_unavailable: string | null;
  }[];
}

function answered(source: Record<string, unknown>): boolean {
  const category = String(source.category ?? "");
  return category === "answered" || category === "genuine_empty" || source.status === "ok";
}

export function coverageOf(
  criteria: readonly string[],
  candidates: readonly Candidate[],
  batches: readonly Batch[],
  tasks: readonly RetrievalTask[],
): CoverageSummary {
  const hits: Record<string, number> = Object.fromEntries(criteria.map((c) => [c, 0]));
  for (const b of batches) {
    for (const s of b.scores ?? []) {
      if (s.score < 1) continue;
      for (const c of s.criteria_hit) if (c in hits) hits[c] = (hits[c] ?? 0) + 1;
    }
  }
  const perQuery: Record<string, number> = {};
  for (const c of candidates) for (const q of c.query_ids) perQuery[q] = (perQuery[q] ?? 0) + 1;
  const silent = new Map<string, Set<string>>();
  const sweeps: CoverageSummary["sweeps"] = [];
  const corpus: CoverageSummary["corpus"] = [];
  for (const t of tasks) {
    if (t.via === "corpus") {
      corpus.push({
        query_id: t.query_id,
        round: t.round,
        sort_served: t.sort_served ?? null,
        similarity_unavailable: t.similarity_unavailable ?? null,
      });
      continue;
    }
    const sources = t.coverage?.sources ?? [];
    sweeps.push({
      query_id: t.query_id,
      round: t.round,
      execution_id: t.execution_id,
      status: t.status,
      ...(t.error ? { error: t.error } : {}),
      summary: t.coverage?.summary ?? null,
      sources,
    });
    const quiet = new Set(t.coverage?.sources_that_could_not_answer ?? []);
    for (const s of sources) if (!answered(s)) quiet.add(String(s.source));
    for (const source of quiet) silent.set(source, (silent.get(source) ?? new Set()).add(t.query_id));
  }
  return {
    hits_per_criterion: hits,
    thin_criteria: criteria.filter((c) => (hits[c] ?? 0) < THIN_BELOW),
    pool_per_query: perQuery,
    sweeps,
    silent_sources: [...silent].map(([source, qs]) => ({ source, query_ids: [...qs] })),
    corpus,
  };
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

/** Whether the profile calls for a gap round, and the reasons in words. */
export function gapDecision(
  rule: GapRule,
  force: boolean,
  coverage: Pick<CoverageSummary, "hits_per_criterion" | "pool_per_query">,
  queryIds: readonly string[],
): { needed: boolean; reasons: string[] } {
  if (force) return { needed: true, reasons: ["force_gap_round was set."] };
  if (rule === "never") return { needed: false, reasons: ["The quick profile never runs a gap round."] };
  if (rule === "always") return { needed: true, reasons: ["The deep profile always runs a gap round."] };
  const reasons: string[] = [];
  const counts = Object.entries(coverage.hits_per_criterion);
  const med = median(counts.map(([, n]) => n));
  const weakest = counts.reduce<[string, number] | null>((w, c) => (w === null || c[1] < w[1] ? c : w), null);
  if (weakest && weakest[1] < 8) reasons.push(`Criterion ${weakest[0]} has ${weakest[1]} papers (under 8).`);
  else if (weakest && weakest[1] < med / 2) {
    reasons.push(`Criterion ${weakest[0]} has ${weakest[1]} papers, under half the median (${med}).`);
  }
  for (const q of queryIds) {
    const n = coverage.pool_per_query[q] ?? 0;
    if (n < 20) reasons.push(`Query ${q} contributed ${n} candidates (under 20).`);
  }
  return { needed: reasons.length > 0, reasons };
}
