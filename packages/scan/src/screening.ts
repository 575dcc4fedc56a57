/** What happened to every screened paper, and the screening economy: when the scores show nothing, stopping is offered. */
import { SHORTLIST_MIN_SCORE } from "./profile.js";
import { scoresById, shortlistedIds } from "./shortlist.js";
import type { Batch, Correction, ScanState } from "./state.js";

/** Per score, how many papers the model gave it and where they went. */
export interface ScreeningAccount {
  by_score: Record<string, { screened: number; ranked?: number; left_out?: number; below_bar?: number }>;
  screened: number;
  /** Candidates never screened: the model stopped screening. */
  unscreened: number;
  stopped: string | null;
  corrections: Correction[];
}

export function screeningAccount(state: ScanState): ScreeningAccount {
  const scores = scoresById(state.batches);
  const ranked = new Set(shortlistedIds(state.shortlist));
  const leftOut = new Set(state.shortlist?.left_out ?? []);
  const byScore: ScreeningAccount["by_score"] = {};
  for (const score of [3, 2, 1, 0]) {
    const ids = [...scores.values()].filter((s) => s.score === score).map((s) => s.doc_id);
    byScore[String(score)] =
      score >= SHORTLIST_MIN_SCORE
        ? {
            screened: ids.length,
            ranked: ids.filter((id) => ranked.has(id)).length,
            left_out: ids.filter((id) => leftOut.has(id)).length,
          }
        : { screened: ids.length, below_bar: ids.length };
  }
  const stopped = state.screening_stopped ?? null;
  return {
    by_score: byScore,
    screened: scores.size,
    unscreened: stopped?.unscreened.length ?? 0,
    stopped: stopped ? stoppedWords(state) : null,
    corrections: state.corrections ?? [],
  };
}

/** The sentence a stopped screening says: when, why, and what was not screened. */
export function stoppedWords(state: ScanState): string {
  const stopped = state.screening_stopped;
  if (!stopped) return "";
  const screened = state.batches.reduce((n, b) => n + (b.scores?.length ?? 0), 0);
  return `Screening was stopped by the model after ${screened} of ${screened + stopped.unscreened.length} candidates (${stopped.why}); ${stopped.unscreened.length} were never screened, and no expansion or gap round followed.`;
}

/** Accepted batches in the order they were screened. */
function screenedBatches(state: ScanState): Batch[] {
  return state.batches.filter((b) => b.accepted_hash !== null && !b.skipped);
}

/**
 * Why stopping is worth offering now, or null: the last two batches screened had nothing scored 2 or
 * more, or the last one was an expansion batch scored all 0. Offered only while batches are left.
 */
export function stopOfferWhy(state: ScanState): string | null {
  if (state.screening_stopped) return null;
  if (!state.batches.some((b) => b.accepted_hash === null && !b.skipped)) return null;
  const done = screenedBatches(state);
  const last = done.at(-1);
  if (!last) return null;
  const best = (b: Batch) => Math.max(0, ...(b.scores ?? []).map((s) => s.score));
  const expansion = last.doc_ids.every(
    (id) => state.candidates.find((c) => c.doc_id === id)?.origin === "expansion",
  );
  if (expansion && best(last) === 0) return "the last expansion batch was all scored 0";
  const previous = done.at(-2);
  if (previous && best(last) < SHORTLIST_MIN_SCORE && best(previous) < SHORTLIST_MIN_SCORE)
    return "the last two batches had nothing scored 2 or more";
  return null;
}

/** The candidates still to screen: every item of the batches not yet accepted. */
export function unscreenedIds(state: ScanState): number[] {
  return state.batches.filter((b) => b.accepted_hash === null && !b.skipped).flatMap((b) => b.doc_ids);
}
