import type { ScreenScore } from "@resmon/mcp-contract";
import { PAGE_SIZE, SHORTLIST_IN_WINDOW, SHORTLIST_MIN_SCORE, SHORTLIST_OUTSIDE } from "./profile.js";
import type { Batch, Candidate } from "./state.js";

/** Every accepted score by doc id. */
export function scoresById(batches: readonly Batch[]): Map<number, ScreenScore> {
  const out = new Map<number, ScreenScore>();
  for (const b of batches) for (const s of b.scores ?? []) out.set(s.doc_id, s);
  return out;
}

/**
 * Score ≥ 2; best first (score, then criteria met, then how many queries found it, then doc id);
 * at most 40 in the window and 12 outside it.
 */
export function buildShortlist(
  candidates: readonly Candidate[],
  scores: Map<number, ScreenScore>,
): { in_window: number[]; outside: number[] } {
  const eligible = candidates
    .map((c) => ({ c, s: scores.get(c.doc_id) }))
    .filter(
      (x): x is { c: Candidate; s: ScreenScore } => x.s !== undefined && x.s.score >= SHORTLIST_MIN_SCORE,
    )
    .sort(
      (a, b) =>
        b.s.score - a.s.score ||
        b.s.criteria_hit.length - a.s.criteria_hit.length ||
        b.c.query_ids.length - a.c.query_ids.length ||
        a.c.doc_id - b.c.doc_id,
    );
  return {
    in_window: eligible
      .filter((x) => !x.c.out_of_window)
      .slice(0, SHORTLIST_IN_WINDOW)
      .map((x) => x.c.doc_id),
    outside: eligible
      .filter((x) => x.c.out_of_window)
      .slice(0, SHORTLIST_OUTSIDE)
      .map((x) => x.c.doc_id),
  };
}

export function shortlistPages(shortlist: { in_window: number[]; outside: number[] }): number[][] {
  const all = [...shortlist.in_window, ...shortlist.outside];
  const pages: number[][] = [];
  for (let i = 0; i < all.length; i += PAGE_SIZE) pages.push(all.slice(i, i + PAGE_SIZE));
  return pages;
}
