import type { GapRule } from "./profile.js";
import { THIN_BELOW } from "./profile.js";
import type { Batch, Candidate, RetrievalTask, SweepCoverage } from "./state.js";

type Row = Record<string, unknown>;

/** A source's outcome in one sweep: resmon's category, or not_reported where resmon said nothing about it. */
export type SourceOutcome = "answered" | "non_answer" | "unknown" | "not_reported";

const SOURCE_KEYS = [
  "source",
  "category",
  "label",
  "note",
  "outcome_recorded",
  "status",
  "result_count",
  "zero_reason",
  "zero_detail",
  "genuine_empty",
  "in_part",
];

/** What an execution row says about its sources' coverage (read for every finished sweep). */
export function sweepCoverageOf(row: Row): SweepCoverage {
  const cov = row.coverage;
  const outcomes = (row.source_outcomes ?? {}) as Row;
  if (cov === null || typeof cov !== "object" || !Array.isArray((cov as Row).sources)) {
    return { reported: false, summary: null, counts: null, sources: [], sources_that_could_not_answer: [] };
  }
  const c = cov as Row;
  const counts =
    c.counts && typeof c.counts === "object"
      ? Object.fromEntries(
          Object.entries(c.counts as Row).filter((e): e is [string, number] => typeof e[1] === "number"),
        )
      : null;
  return {
    reported: true,
    summary: typeof c.summary === "string" ? c.summary : null,
    counts,
    sources: (c.sources as Row[]).map((s) =>
      Object.fromEntries(SOURCE_KEYS.filter((k) => k in s).map((k) => [k, s[k]])),
    ),
    sources_that_could_not_answer: Array.isArray(outcomes.sources_that_could_not_answer)
      ? (outcomes.sources_that_could_not_answer as unknown[]).map(String)
      : [],
  };
}

/** A source is answered only where resmon's coverage row says `answered`; no row, no coverage: not_reported. */
export function outcomeIn(coverage: SweepCoverage | null | undefined, source: string): SourceOutcome {
  if (!coverage || coverage.reported === false) return "not_reported";
  const row = coverage.sources.find((s) => s.source === source);
  if (!row) return coverage.sources_that_could_not_answer.includes(source) ? "non_answer" : "not_reported";
  if (row.category === "answered") {
    return coverage.sources_that_could_not_answer.includes(source) ? "non_answer" : "answered";
  }
  return row.category === "non_answer" ? "non_answer" : "unknown";
}

/** One source over every finished sweep: how often resmon recorded each outcome, and its words where it did not answer. */
export interface SourceTally {
  source: string;
  sweeps: number;
  answered: number;
  /** Answered with nothing (resmon's genuine_empty): a subset of answered. */
  genuine_empty: number;
  non_answer: number;
  unknown: number;
  not_reported: number;
  /** Queries whose sweep this source did not answer (or whose outcome was unknown or not reported). */
  query_ids: string[];
  /** resmon's label, zero_reason and note for the outcomes that were not answers, verbatim, each once. */
  labels: string[];
  zero_reasons: string[];
  notes: string[];
}

/** Sweeps whose run ended: done, or failed as a run (a POST resmon refused started no run and asked no source). */
function finishedSweeps(tasks: readonly RetrievalTask[]): RetrievalTask[] {
  return tasks.filter(
    (t) => t.via === "sweep" && (t.status === "done" || (t.status === "failed" && t.execution_id !== null)),
  );
}

function addOnce(list: string[], value: unknown): void {
  if (typeof value === "string" && value !== "" && !list.includes(value)) list.push(value);
}

/** Every selected source (and any other resmon recorded) over the finished sweeps. */
export function tallySources(tasks: readonly RetrievalTask[], selected: readonly string[]): SourceTally[] {
  const sweeps = finishedSweeps(tasks);
  const names = [...selected];
  for (const t of sweeps) for (const s of t.coverage?.sources ?? []) addOnce(names, s.source);
  return names.map((source) => {
    const tally: SourceTally = {
      source,
      sweeps: 0,
      answered: 0,
      genuine_empty: 0,
      non_answer: 0,
      unknown: 0,
      not_reported: 0,
      query_ids: [],
      labels: [],
      zero_reasons: [],
      notes: [],
    };
    for (const t of sweeps) {
      const outcome = outcomeIn(t.coverage, source);
      // A source outside the selection that a sweep never recorded was not asked there.
      if (outcome === "not_reported" && !selected.includes(source)) continue;
      tally.sweeps++;
      tally[outcome]++;
      const row = t.coverage?.sources.find((s) => s.source === source);
      if (outcome === "answered") {
        if (row?.genuine_empty === true) tally.genuine_empty++;
        continue;
      }
      addOnce(tally.query_ids, t.query_id);
      addOnce(tally.labels, row?.label);
      addOnce(tally.zero_reasons, row?.zero_reason);
      addOnce(tally.notes, row?.note);
    }
    return tally;
  });
}

/** Sources that did not answer every sweep they were asked in, by resmon's record. */
export function atRisk(tallies: readonly SourceTally[]): SourceTally[] {
  return tallies.filter((t) => t.sweeps > t.answered);
}

/** How one source's outcomes read: "unknown in 6 of 6 sweeps", "did not answer in 2 of 6 sweeps, not reported in 1". */
export function outcomeWords(t: SourceTally): string {
  const parts = [
    t.non_answer && `did not answer in ${t.non_answer}`,
    t.unknown && `unknown in ${t.unknown}`,
    t.not_reported && `not reported in ${t.not_reported}`,
  ].filter((p): p is string => Boolean(p));
  return `${parts.join(", ")} of ${t.sweeps} sweeps (answered in ${t.answered})`;
}

/**
 * The sentence for sweeps every source answered, true however many returned nothing (`papers`: each
 * sweep's rows): an answered zero is resmon's record that the source has nothing, not silence.
 */
export function allAnsweredWords(papers: readonly number[]): string {
  const empty = papers.filter((n) => n === 0).length;
  if (empty === 0) return "Every source answered every sweep, by resmon's record.";
  if (empty === papers.length)
    return "Every source answered every sweep, by resmon's record, and every sweep returned 0 papers: the sources answered that they have none, which is not a silent source.";
  return `Every source answered every sweep, by resmon's record; ${empty} of the ${papers.length} sweeps returned 0 papers.`;
}

/** For every envelope's progress: how many sources resmon did not record as answering every finished sweep. */
export function coverageProgress(
  tasks: readonly RetrievalTask[],
  selected: readonly string[],
): Record<string, unknown> {
  // A sweep that failed heard from no source: its sources are at risk too, never "0 at risk".
  const failed = tasks.filter((t) => t.via === "sweep" && t.status === "failed").length;
  if (finishedSweeps(tasks).length === 0 && failed === 0) return {};
  const risky = atRisk(tallySources(tasks, selected));
  const count = failed ? new Set([...selected, ...risky.map((t) => t.source)]).size : risky.length;
  if (count === 0) return { coverage_risk: 0 };
  const failedWords = failed
    ? `${failed} sweep${failed === 1 ? "" : "s"} failed, so no source answered ${failed === 1 ? "it" : "them"}`
    : "";
  return {
    coverage_risk: count,
    coverage_note: [riskWords(risky), failedWords].filter(Boolean).join("; "),
  };
}

/**
 * Round 0 retrieved nothing and no source was recorded as answering any of its sweeps: not an empty
 * result to rank, but a search that may not have happened (the scan says so and offers the way on).
 */
export function roundFoundNothing(tasks: readonly RetrievalTask[], selected: readonly string[]): boolean {
  const round = tasks.filter((t) => t.round === 0);
  if (!round.some((t) => t.via === "sweep" && t.status === "done")) return false;
  if (!round.every((t) => t.status === "done" || t.status === "failed")) return false;
  if (round.some((t) => (t.doc_ids?.length ?? 0) > 0)) return false;
  return tallySources(round, selected).every((t) => t.answered === 0);
}

/** The sources that did not answer, in resmon's words: `arxiv: unknown in 6 of 6 sweeps (answered in 0) — "zero, reason not recorded"`. */
export function riskWords(risky: readonly SourceTally[]): string {
  return risky
    .map((t) => `${t.source}: ${outcomeWords(t)}${t.labels.length ? ` — "${t.labels.join('", "')}"` : ""}`)
    .join("; ");
}

export interface CoverageSummary {
  /** Screened papers (score ≥ 1) that the model said meet each criterion. */
  hits_per_criterion: Record<string, number>;
  thin_criteria: string[];
  /** Candidates each query contributed (a paper found by several queries counts for each). */
  pool_per_query: Record<string, number>;
  /** Per sweep: resmon's own coverage account, verbatim (reported: false where resmon gave none). */
  sweeps: {
    query_id: string;
    round: number;
    execution_id: number | null;
    status: RetrievalTask["status"];
    error?: string | null;
    reported: boolean;
    /** Rows the sweep returned (0 for one that did not finish). */
    papers: number;
    summary: string | null;
    counts: Record<string, number> | null;
    sources: Row[];
  }[];
  /** Per source over every sweep: answered only where resmon said so. */
  sources: SourceTally[];
  /** True only when resmon recorded every source as answering every sweep. */
  every_source_answered: boolean;
  /** Sources that did not answer some sweep, or whose outcome was unknown or not reported: a coverage risk, never "no papers". */
  silent_sources: {
    source: string;
    query_ids: string[];
    non_answer: number;
    unknown: number;
    not_reported: number;
    labels: string[];
  }[];
  corpus: {
    query_id: string;
    round: number;
    /** null: no sort was sent (this resmon has no similarity search; similarity_unavailable says so). */
    sort_asked: "similarity" | null;
    sort_served: string | null;
    similarity_unavailable: string | null;
  }[];
}

export function coverageOf(
  criteria: readonly string[],
  candidates: readonly Candidate[],
  batches: readonly Batch[],
  tasks: readonly RetrievalTask[],
  selected: readonly string[],
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
  const sweeps: CoverageSummary["sweeps"] = [];
  const corpus: CoverageSummary["corpus"] = [];
  for (const t of tasks) {
    if (t.via === "corpus") {
      corpus.push({
        query_id: t.query_id,
        round: t.round,
        sort_asked: t.sort_asked === undefined ? "similarity" : t.sort_asked,
        sort_served: t.sort_served ?? null,
        similarity_unavailable: t.similarity_unavailable ?? null,
      });
      continue;
    }
    sweeps.push({
      query_id: t.query_id,
      round: t.round,
      execution_id: t.execution_id,
      status: t.status,
      ...(t.error ? { error: t.error } : {}),
      reported: Boolean(t.coverage) && t.coverage?.reported !== false,
      papers: t.doc_ids?.length ?? 0,
      summary: t.coverage?.summary ?? null,
      counts: t.coverage?.counts ?? null,
      sources: t.coverage?.sources ?? [],
    });
  }
  const tallies = tallySources(tasks, selected);
  const risky = atRisk(tallies);
  return {
    hits_per_criterion: hits,
    thin_criteria: criteria.filter((c) => (hits[c] ?? 0) < THIN_BELOW),
    pool_per_query: perQuery,
    sweeps,
    sources: tallies,
    every_source_answered: finishedSweeps(tasks).length > 0 && tallies.length > 0 && risky.length === 0,
    silent_sources: risky.map((t) => ({
      source: t.source,
      query_ids: t.query_ids,
      non_answer: t.non_answer,
      unknown: t.unknown,
      not_reported: t.not_reported,
      labels: t.labels,
    })),
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
  // Every criterion the rule names, not only the weakest: the reasons agree with thin_criteria.
  // "Thin" is one number everywhere: the gap rule's, thin_criteria's and evidence.md's (THIN_BELOW).
  const few = counts.filter(([, n]) => n < THIN_BELOW);
  const belowHalf = counts.filter(([, n]) => n >= THIN_BELOW && n < med / 2);
  const said = (list: [string, number][]) => list.map(([c, n]) => `${c} (${n})`).join(", ");
  if (few.length === 1) reasons.push(`Criterion ${said(few)} is thin: under ${THIN_BELOW} papers.`);
  if (few.length > 1) reasons.push(`Criteria ${said(few)} are thin: under ${THIN_BELOW} papers each.`);
  if (belowHalf.length) {
    reasons.push(
      `${belowHalf.length === 1 ? "Criterion" : "Criteria"} ${said(belowHalf)} ${belowHalf.length === 1 ? "has" : "have"} under half the median (${med}) papers.`,
    );
  }
  for (const q of queryIds) {
    const n = coverage.pool_per_query[q] ?? 0;
    if (n < 20) reasons.push(`Query ${q} contributed ${n} candidates (under 20).`);
  }
  return { needed: reasons.length > 0, reasons };
}
