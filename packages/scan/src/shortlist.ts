import type { ScreenScore } from "@resmon/mcp-contract";
import { PAGE_SIZE, SHORTLIST_MIN_SCORE, SHORTLIST_OUTSIDE } from "./profile.js";
import type { Batch, Candidate } from "./state.js";

/** Every accepted score by doc id. */
export function scoresById(batches: readonly Batch[]): Map<number, ScreenScore> {
  const out = new Map<number, ScreenScore>();
  for (const b of batches) for (const s of b.scores ?? []) out.set(s.doc_id, s);
  return out;
}

/** The shortlist: what the model ranks, and what scored 2 or more but was left out by the bound (best first). */
export interface Shortlist {
  in_window: number[];
  outside: number[];
  /** Scored ≥ 2 and not shortlisted (the bound), best first: the model may pull any of them in. */
  left_out?: number[];
  /** The bound the shortlist was built under: at most 2 × top + 10 papers to rank. */
  limit?: number;
  /** Papers the model pulled in from left_out while ranking. */
  pulled_in?: number[];
}

/** How many papers the model is asked to rank: it scales with top (2 × top + 10). */
export function rankLimit(top: number): number {
  return 2 * top + 10;
}

/** Out-of-window papers enter the result only through foundational slots: room for a few per slot. */
export function outsideLimit(foundational: number): number {
  return foundational === 0 ? 0 : Math.min(SHORTLIST_OUTSIDE, 2 * foundational + 2);
}

type Eligible = { c: Candidate; s: ScreenScore };

const better = (a: Eligible, b: Eligible) =>
  b.s.score - a.s.score ||
  b.s.criteria_hit.length - a.s.criteria_hit.length ||
  b.c.query_ids.length - a.c.query_ids.length ||
  a.c.doc_id - b.c.doc_id;

/**
 * `room` papers of one score, chosen so that no criterion the model marked is starved: each pick is
 * the paper whose least-represented criterion (among those picked so far) is least represented, so
 * every marked criterion gets its share before a well-covered one gets more; ties by `better`.
 */
function balanced(tier: Eligible[], room: number, counts: Map<string, number>): Eligible[] {
  const left = [...tier].sort(better);
  const picked: Eligible[] = [];
  const need = (x: Eligible) =>
    x.s.criteria_hit.length === 0
      ? Number.MAX_SAFE_INTEGER
      : Math.min(...x.s.criteria_hit.map((c) => counts.get(c) ?? 0));
  while (picked.length < room && left.length) {
    let best = 0;
    for (let i = 1; i < left.length; i++) {
      if (need(left[i] as Eligible) < need(left[best] as Eligible)) best = i;
    }
    const [x] = left.splice(best, 1) as [Eligible];
    picked.push(x);
    for (const c of x.s.criteria_hit) counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  return picked;
}

/** Take up to `room` of `pool`, a score at a time from the best: a whole score when it fits, else balanced over criteria. */
function take(pool: Eligible[], room: number): Eligible[] {
  const counts = new Map<string, number>();
  const out: Eligible[] = [];
  for (const score of [...new Set(pool.map((x) => x.s.score))].sort((a, b) => b - a)) {
    const tier = pool.filter((x) => x.s.score === score);
    const left = room - out.length;
    if (left <= 0) break;
    const chosen = tier.length <= left ? tier : balanced(tier, left, counts);
    if (tier.length <= left)
      for (const x of tier) for (const c of x.s.criteria_hit) counts.set(c, (counts.get(c) ?? 0) + 1);
    out.push(...chosen);
  }
  return out.sort(better);
}

/**
 * Score ≥ 2, at most 2 × top + 10 papers (rankLimit), a few of them outside the window when there are
 * foundational slots. Every paper at the top score is taken while the bound allows; past it, the
 * papers taken at a score are balanced over the criteria the model marked (never cut by how many
 * queries found them), and the rest are `left_out`, best first, for the model to pull in.
 */
export function buildShortlist(
  candidates: readonly Candidate[],
  scores: Map<number, ScreenScore>,
  bound: { top: number; foundational: number },
): Required<Omit<Shortlist, "pulled_in">> {
  const eligible = candidates
    .map((c) => ({ c, s: scores.get(c.doc_id) }))
    .filter((x): x is Eligible => x.s !== undefined && x.s.score >= SHORTLIST_MIN_SCORE)
    .sort(better);
  const limit = rankLimit(bound.top);
  const outside = take(
    eligible.filter((x) => x.c.out_of_window),
    Math.min(outsideLimit(bound.foundational), limit),
  );
  const inWindow = take(
    eligible.filter((x) => !x.c.out_of_window),
    limit - outside.length,
  );
  const taken = new Set([...inWindow, ...outside].map((x) => x.c.doc_id));
  return {
    in_window: inWindow.map((x) => x.c.doc_id),
    outside: outside.map((x) => x.c.doc_id),
    left_out: eligible.filter((x) => !taken.has(x.c.doc_id)).map((x) => x.c.doc_id),
    limit,
  };
}

export function shortlistPages(shortlist: { in_window: number[]; outside: number[] }): number[][] {
  const all = [...shortlist.in_window, ...shortlist.outside];
  const pages: number[][] = [];
  for (let i = 0; i < all.length; i += PAGE_SIZE) pages.push(all.slice(i, i + PAGE_SIZE));
  return pages;
}

/** Every paper the model is to rank: the shortlist and what it pulled in. */
export function shortlistedIds(s: Shortlist | null): number[] {
  return s ? [...s.in_window, ...s.outside, ...(s.pulled_in ?? [])] : [];
}
