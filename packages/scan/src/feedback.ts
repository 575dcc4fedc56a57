/**
 * Screening spent where the model's scores show papers (issue 44). A round's retrieval releases only
 * the first page of each query to screening; once those are scored, each feedback round releases the
 * next page of every query whose latest page held a paper the model scored 3, and asks resmon for
 * the neighbours of every paper newly scored 3. A query whose page held no 3 gets no more pages; the
 * rounds end when nothing new comes, or at the profile's screening budget. The server only counts
 * and retrieves: every judgement it follows is the model's score.
 */

import { ToolError } from "@resmon/mcp-contract";
import { windowDates } from "./args.js";
import type { Call } from "./call.js";
import { type Nearest, neighbourList } from "./neighbours.js";
import { applyUpdates, type PoolInput, pool } from "./pool.js";

import { BATCH_SIZE, FEEDBACK_K, PROFILES, QUERY_PAGE } from "./profile.js";
import { corpusSearch, similarTo } from "./resmon.js";
import { scoresById } from "./shortlist.js";
import type { Candidate, FeedbackState, ScanState } from "./state.js";

export const pageKey = (round: number, queryId: string) => `${round}:${queryId}`;

/** Papers the model may be asked to screen in this scan: the profile's budget, or the pool cap when lower. */
export function screenBudget(state: ScanState): number {
  return Math.min(PROFILES[state.inputs.profile].screenBudget, state.inputs.max_candidates);
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

/** A feedback round is due once every released paper is scored, while the last round added some. */
export function feedbackDue(state: ScanState): boolean {
  return state.feedback !== undefined && !state.feedback.done;
}

type AddBatches = (added: Candidate[]) => void;

/** One feedback round: deeper pages of the queries that scored 3, neighbours of the new 3s. */
export async function feedbackRound(call: Call, addBatches: AddBatches): Promise<void> {
  const state = call.state;
  const fb = state.feedback ?? emptyFeedback();
  const scores = scoresById(state.batches);
  const scoredThree = (id: number) => scores.get(id)?.score === 3;
  const window = { since: state.inputs.since, until: state.inputs.until };
  let room = Math.max(0, screenBudget(state) - state.candidates.length);
  const round: FeedbackState["rounds"][number] = { deeper: [], seeds: [], added: 0 };
  // One pool() step of the round: the lists' next papers, up to the room left, as new batches.
  const poolStep = (queries: PoolInput["queries"], origin: PoolInput["origin"]) => {
    const out = pool({
      queries,
      records: call.records,
      window,
      perQuery: QUERY_PAGE,
      cap: room,
      existing: state.candidates,
      origin,
      firstBatch: state.batches.length,
      batchSize: BATCH_SIZE,
    });
    applyUpdates(state, out.updated);
    addBatches(out.added);
    return out;
  };

  // Deeper pages, from what each query's sweeps already returned.
  const deeper = Object.entries(fb.pages)
    .filter(([key, page]) => page.some(scoredThree) && (fb.released[key] ?? 0) < state.inputs.per_query)
    .map(([key]) => key);
  for (const key of Object.keys(fb.pages)) if (!deeper.includes(key)) fb.pages[key] = [];
  if (deeper.length && room > 0) {
    const lists = deeper.map((key) => {
      const [roundText, ...rest] = key.split(":");
      const queryId = rest.join(":");
      const r = Number(roundText);
      const planned = state.inputs.queries.queries.find((q) => q.id === queryId);
      return {
        id: queryId,
        must_not: r === 0 ? (planned?.must_not ?? []) : [],
        doc_ids: state.tasks
          .filter((t) => t.round === r && t.query_id === queryId && t.status === "done")
          .sort((a, b) => (a.via === b.via ? 0 : a.via === "sweep" ? -1 : 1))
          .flatMap((t) => t.doc_ids ?? []),
      };
    });
    const out = poolStep(lists, "retrieval");
    for (const key of deeper) {
      const ids = out.credited[key.slice(key.indexOf(":") + 1)] ?? [];
      fb.pages[key] = ids;
      fb.released[key] = (fb.released[key] ?? 0) + ids.length;
    }
    room -= out.added.length;
    round.deeper = deeper;
    round.added += out.added.length;
  }

  // Neighbours of every paper newly scored 3 (resmon's similar papers), merged with what is there.
  const seeds = state.candidates
    .filter((c) => scoredThree(c.doc_id) && !fb.seeded.includes(c.doc_id))
    .map((c) => c.doc_id);
  const lack = seeds.length && room > 0 ? (await call.serves("expand")).similar : null;
  if (seeds.length && room > 0 && !lack) {
    const lists: { id: string; must_not: string[]; doc_ids: number[] }[] = [];
    const nearest: Nearest = {};
    for (const seed of seeds) {
      const res = await similarTo(call, seed, FEEDBACK_K);
      if (!res.ok && res.error.code === "backend_unavailable") throw res.error;
      fb.seeded.push(seed);
      if (!res.ok || res.records.length === 0) continue;
      lists.push(neighbourList(call, state, seed, res, nearest));
    }
    const out = poolStep(lists, "expansion");
    state.nearest ??= {};
    for (const c of out.added) {
      const near = nearest[String(c.doc_id)];
      if (near) state.nearest[String(c.doc_id)] = near;
    }
    round.seeds = seeds;
    round.added += out.added.length;
  }
  fb.rounds.push(round);
  // Nothing new: the scores show no more papers along these lines, or the budget is spent.
  if (round.added === 0) fb.done = true;
  state.feedback = fb;
  call.save();
}
