/**
 * Screening spent where the model's scores show papers (issue 44). A round's retrieval releases only
 * the first page of each query to screening (one batch for the whole plan); once those are scored,
 * each feedback round releases one batch: the papers resmon's own lists put first once the model's
 * scores weigh them (feedbackPriority) — the rest of each query whose latest page held a 3, the
 * neighbours of every paper scored 3, against the neighbours of every paper scored 0. The rounds end
 * when those lists favour nothing more, or at the profile's screening budget. The server only
 * retrieves and counts: every judgement it follows is the model's score.
 */

import { ToolError } from "@resmon/mcp-contract";
import { windowDates } from "./args.js";
import type { Call } from "./call.js";
import { type Nearest, neighbourList } from "./neighbours.js";
import { applyUpdates, excludedBy, pool } from "./pool.js";
import {
  BATCH_SIZE,
  FEEDBACK_WORKS,
  PROFILES,
  type ProfileName,
  TOKENS_BESIDES_PAPERS,
  TOKENS_PER_RANKED_PAPER,
  TOKENS_PER_SCREENED_PAPER,
} from "./profile.js";
import { corpusSearch, similarTo } from "./resmon.js";
import { rankLimit, scoresById } from "./shortlist.js";
import type { Candidate, FeedbackState, ScanState } from "./state.js";

export const pageKey = (round: number, queryId: string) => `${round}:${queryId}`;

/**
 * Papers the model may be asked to screen in this scan, every batch counted (the plan's first pages,
 * feedback, expansion, the gap round's pages): what the profile's token budget leaves once ranking a
 * full shortlist (2 × top + 10 papers) and the rest are paid for, divided by what one screened paper
 * costs (profile.ts); never less than one batch (every query's first page), never more than the pool
 * cap.
 */
export function screenBudget(state: ScanState): number {
  const { profile, top, max_candidates } = state.inputs;
  return Math.min(screenBudgetOf(profile, top), max_candidates);
}

/**
 * Whether the gap round may still come: the profile can ask for one (or force_gap_round was set)
 * and it is not yet settled — decided against, skipped with [], or its pages pooled.
 */
function gapAhead(state: ScanState): boolean {
  const { profile, force_gap_round } = state.inputs;
  if (PROFILES[profile].gap === "never" && !force_gap_round) return false;
  return state.gap === null || (state.gap.needed && state.gap.queries === null);
}

/**
 * How many more papers may be released to screening now. While a gap round may come, one batch of
 * the budget is held for its pages, so the model's own gap queries are screened within the budget
 * rather than on top of it; once the gap round is settled, what it left of the hold goes back to
 * feedback (steps.ts), so a scan with no gap round screens as many papers as one with.
 */
export function screenRoom(state: ScanState): number {
  const held = gapAhead(state) ? BATCH_SIZE : 0;
  return Math.max(0, screenBudget(state) - held - state.candidates.length);
}

export function screenBudgetOf(profile: ProfileName, top: number): number {
  const left =
    PROFILES[profile].tokenBudget - TOKENS_BESIDES_PAPERS - rankLimit(top) * TOKENS_PER_RANKED_PAPER;
  return Math.max(BATCH_SIZE, Math.floor(left / TOKENS_PER_SCREENED_PAPER));
}

/**
 * A query's page: its share of one screening batch, so the first pages of every planned query are
 * screened together, in the model's first call, before any query goes deeper.
 */
export function queryPage(state: ScanState): number {
  return Math.max(1, Math.floor(BATCH_SIZE / state.inputs.queries.queries.length));
}

export function emptyFeedback(): FeedbackState {
  return { pages: {}, released: {}, seeded: [], rounds: [], done: false };
}

/** A round's first pages, as pool credited them: the queries' pages begin here. */
export function notePages(state: ScanState, round: number, credited: Record<string, number[]>): void {
  const fb = state.feedback ?? emptyFeedback();
  for (const [queryId, ids] of Object.entries(credited)) {
    const key = pageKey(round, queryId);
    fb.pages[key] = ids;
    fb.released[key] = (fb.released[key] ?? 0) + ids.length;
  }
  fb.done = false;
  state.feedback = fb;
}

/**
 * resmon answers a run's rows newest first, not in the order its sources ranked them; a page of a
 * query must be its best papers, so each finished sweep's rows are put in resmon's own ranking of the
 * query (its corpus search, sorted by similarity where it can), rows it did not rank kept after in
 * their order. Nothing is added or dropped: the candidates are still only what the sweeps returned.
 */
export async function rankSweepRows(call: Call, round: number): Promise<void> {
  const state = call.state;
  const tasks = state.tasks.filter(
    (t) => t.round === round && t.via === "sweep" && t.status === "done" && t.ranked_by === undefined,
  );
  if (tasks.length === 0) return;
  const lack = (await call.serves("retrieve")).similarity_search;
  for (const t of tasks) {
    const rows = t.doc_ids ?? [];
    // With retrieval "both" the query's corpus search is resmon's ranking already: nothing more is asked.
    const searched = state.tasks.find(
      (c) => c.round === round && c.query_id === t.query_id && c.via === "corpus" && c.status === "done",
    );
    if (searched?.sort_served === "similarity") {
      t.doc_ids = inOrder(rows, searched.doc_ids ?? []);
      t.ranked_by = "similarity";
      call.save();
      continue;
    }
    try {
      const page = await corpusSearch(
        call,
        { query: t.text, sources: state.inputs.sources, ...windowDates(state.inputs) },
        Math.min(500, rows.length * 3),
        lack === null,
      );
      const served = page.sort === "similarity" ? "similarity" : null;
      if (served)
        t.doc_ids = inOrder(
          rows,
          page.records.map((r) => r.id),
        );
      t.ranked_by = served;
    } catch (error) {
      if (!(error instanceof ToolError) || error.code === "backend_unavailable") throw error;
      t.ranked_by = null;
    }
    call.save();
  }
}

/** `rows` in the order `ranking` gives them; rows it does not rank follow in their own order. */
function inOrder(rows: readonly number[], ranking: readonly number[]): number[] {
  const mine = new Set(rows);
  const ranked = ranking.filter((id) => mine.has(id));
  const seen = new Set(ranked);
  return [...ranked, ...rows.filter((id) => !seen.has(id))];
}

/**
 * A feedback round is due once every released paper is scored, while the last round added some and
 * there is room: before the gap round (the room less the gap round's hold), or after it is settled,
 * on what it left — never while the model is asked for gap queries, nor once it stopped screening.
 */
export function feedbackDue(state: ScanState): boolean {
  if (state.feedback === undefined || state.feedback.done || state.screening_stopped) return false;
  if (state.gap?.needed && state.gap.queries === null) return false;
  return screenRoom(state) > 0;
}

type AddBatches = (added: Candidate[]) => void;

/**
 * Relevance feedback as Rocchio's (Manning, Raghavan & Schütze, Introduction to Information
 * Retrieval, §9.1.1, its textbook weights): the mean of what is relevant, less a little of the mean
 * of what is not. Each query still going deeper counts as one more relevant paper, as continuous
 * active learning counts the topic's own statement (Cormack & Grossman 2015, "BMI"), so the
 * model's judgements outweigh the plan as they accumulate. Every piece is a ranked list resmon gave —
 * a query's rows in its own ranking, a paper's neighbours — read by its ranks (reciprocal rank
 * fusion, Cormack, Clarke & Büttcher 2009, with its constant 60), never by a similarity the server
 * computes itself.
 */
const ROCCHIO = { relevant: 0.75, notRelevant: 0.15 } as const;
const FUSION_K = 60;

/** Each paper's feedback priority: the fused ranks of the relevant lists' mean, less the not-relevant lists'. */
export function feedbackPriority(lists: {
  relevant: readonly (readonly number[])[];
  notRelevant: readonly (readonly number[])[];
}): Map<number, number> {
  const out = new Map<number, number>();
  const add = (kind: readonly (readonly number[])[], weight: number) => {
    for (const list of kind)
      list.forEach((id, i) => {
        out.set(id, (out.get(id) ?? 0) + weight / kind.length / (FUSION_K + i + 1));
      });
  };
  add(lists.relevant, ROCCHIO.relevant);
  add(lists.notRelevant, -ROCCHIO.notRelevant);
  return out;
}

/**
 * One feedback round: one batch of the papers resmon retrieved that the model's scores put first.
 * The lists: the remaining rows of every query whose latest page held a paper scored 3, the
 * neighbours of every paper scored 3, and against them the neighbours of every paper scored 0.
 * The rounds stop when nothing is left that the lists favour, or at the screening budget; when the
 * scores keep showing nothing, the model is offered to stop (screening.ts) — that judgement is its.
 */
export async function feedbackRound(call: Call, addBatches: AddBatches): Promise<void> {
  const state = call.state;
  const fb = state.feedback ?? emptyFeedback();
  const scores = scoresById(state.batches);
  const scored = (id: number, score: number) => scores.get(id)?.score === score;
  const round: FeedbackState["rounds"][number] = { deeper: [], seeds: [], added: 0 };
  const finish = () => {
    fb.rounds.push(round);
    if (round.added === 0) fb.done = true;
    state.feedback = fb;
    call.save();
  };
  const room = Math.min(BATCH_SIZE, screenRoom(state));
  if (room === 0) return finish();

  // The queries still going deeper: their latest page held a 3, and their depth is not spent.
  const deeper = Object.entries(fb.pages)
    .filter(
      ([key, page]) => page.some((id) => scored(id, 3)) && (fb.released[key] ?? 0) < state.inputs.per_query,
    )
    .map(([key]) => key);
  for (const key of Object.keys(fb.pages)) if (!deeper.includes(key)) fb.pages[key] = [];
  const queryLists = deeper.map((key) => {
    const [roundText, ...rest] = key.split(":");
    const queryId = rest.join(":");
    const r = Number(roundText);
    const mustNot =
      r === 0 ? (state.inputs.queries.queries.find((q) => q.id === queryId)?.must_not ?? []) : [];
    const rows = state.tasks
      .filter((t) => t.round === r && t.query_id === queryId && t.status === "done")
      .sort((a, b) => (a.via === b.via ? 0 : a.via === "sweep" ? -1 : 1))
      .flatMap((t) => t.doc_ids ?? []);
    // must_not drops a row from the list before its rank is read, as pool() would.
    const kept = rows.filter((id) => {
      const rec = call.records[id];
      return rec !== undefined && !excludedBy(rec, mustNot);
    });
    return { id: queryId, must_not: [] as string[], doc_ids: [...new Set(kept)] };
  });

  // Neighbours of every paper newly scored 3 (kept for later rounds) and of every one newly scored 0.
  const lack = (await call.serves("expand")).similar;
  const nearest: Nearest = {};
  fb.relevant ??= {};
  fb.not_relevant ??= {};
  const relevant = fb.relevant;
  const notRelevant = fb.not_relevant;
  if (!lack) {
    for (const c of state.candidates) {
      const three = scored(c.doc_id, 3) && !fb.seeded.includes(c.doc_id);
      const zero = scored(c.doc_id, 0) && notRelevant[String(c.doc_id)] === undefined;
      if (!three && !zero) continue;
      const res = await similarTo(call, c.doc_id, FEEDBACK_WORKS * state.inputs.sources.length);
      if (!res.ok && res.error.code === "backend_unavailable") throw res.error;
      const found = res.ok ? res : { records: [], distances: {} };
      if (three) {
        fb.seeded.push(c.doc_id);
        round.seeds.push(c.doc_id);
        relevant[String(c.doc_id)] = neighbourList(call, state, c.doc_id, found, nearest).doc_ids;
      } else {
        const self = new Set([c.doc_id, ...c.merged_ids]);
        notRelevant[String(c.doc_id)] = found.records.map((r) => r.id).filter((id) => !self.has(id));
      }
    }
  }
  const seedLists = Object.entries(relevant).map(([seed, ids]) => ({
    id: `similar:${seed}`,
    must_not: [] as string[],
    doc_ids: ids,
  }));
  const priority = feedbackPriority({
    relevant: [...queryLists, ...seedLists].map((l) => l.doc_ids),
    notRelevant: Object.values(notRelevant),
  });
  const out = pool({
    queries: [...queryLists, ...seedLists],
    records: call.records,
    window: { since: state.inputs.since, until: state.inputs.until },
    perQuery: room,
    cap: room,
    existing: state.candidates,
    origin: "retrieval",
    firstBatch: state.batches.length,
    batchSize: BATCH_SIZE,
    priority,
  });
  // A paper only a neighbour list holds came by similarity, and says which seed it is nearest.
  state.nearest ??= {};
  for (const c of out.added) {
    if (c.query_ids.every((q) => q.startsWith("similar:"))) {
      c.origin = "expansion";
      const near = nearest[String(c.doc_id)] ?? nearestSeed(c, relevant);
      if (near) state.nearest[String(c.doc_id)] = near;
    }
  }
  applyUpdates(state, out.updated);
  addBatches(out.added);
  for (const key of deeper) {
    const ids = out.credited[key.slice(key.indexOf(":") + 1)] ?? [];
    // A query none of whose papers made this batch keeps its page: its evidence stands.
    if (ids.length === 0) continue;
    fb.pages[key] = ids;
    fb.released[key] = (fb.released[key] ?? 0) + ids.length;
  }
  round.deeper = deeper;
  round.added = out.added.length;
  round.released = out.added.map((c) => c.doc_id);
  finish();
}

/** The seed whose neighbour list ranks the paper first, when resmon gave no distance this round. */
function nearestSeed(
  c: Candidate,
  relevant: Record<string, number[]>,
): { seed: number; distance: number | null } | null {
  const ids = new Set([c.doc_id, ...c.merged_ids]);
  let best: { seed: number; at: number } | null = null;
  for (const [seed, list] of Object.entries(relevant)) {
    const at = list.findIndex((id) => ids.has(id));
    if (at >= 0 && (best === null || at < best.at)) best = { seed: Number(seed), at };
  }
  return best ? { seed: best.seed, distance: null } : null;
}
