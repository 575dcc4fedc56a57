/** Per-profile depth (max_results per sweep and per-query cap), pool cap, outside-window slots, gap rule. */
export type ProfileName = "quick" | "standard" | "deep";
export type GapRule = "never" | "when_thin" | "always";

export interface Profile {
  depth: number;
  /**
   * Papers the model is asked to screen at most (the pool cap too, when lower): the first page of
   * every query always, then only deeper pages and neighbours of what it scored 3 (feedback.ts).
   */
  screenBudget: number;
  /** Pool cap for `queryCount` planned queries ("scaled" for deep). */
  poolCap: (queryCount: number) => number;
  outsideSlots: number;
  gap: GapRule;
}

// deep's pool is "scaled": 80 per planned query (6–8 queries give 480–640).
export const PROFILES: Record<ProfileName, Profile> = {
  quick: { depth: 20, screenBudget: 80, poolCap: () => 250, outsideSlots: 12, gap: "never" },
  standard: { depth: 40, screenBudget: 130, poolCap: () => 450, outsideSlots: 20, gap: "when_thin" },
  deep: { depth: 40, screenBudget: 300, poolCap: (n) => 80 * n, outsideSlots: 30, gap: "always" },
};

export const BATCH_SIZE = 25;
/** A query's page: how many of its papers are released to screening at a time (feedback.ts). */
export const QUERY_PAGE = 5;
/** Neighbours asked of resmon per paper scored 3 (copies of one work from several sources merge into one). */
export const FEEDBACK_K = 30;
export const PAGE_SIZE = 10;
export const SHORTLIST_IN_WINDOW = 40;
export const SHORTLIST_OUTSIDE = 12;
export const SHORTLIST_MIN_SCORE = 2;
/** A criterion with fewer papers (scored ≥ 1 naming it) is thin: in thin_criteria, evidence.md and the standard profile's gap rule. */
export const THIN_BELOW = 8;
export const EXPANSION_SEEDS = 5;
export const EXPANSION_K = 10;
export const ALTERNATES = 5;
export const MAX_PER_FIRST_AUTHOR = 2;
/**
 * How often a round that failed, or found nothing with no source answering, is sent again: once, so a
 * scan that follows next_action sends resmon at most two rounds of sweeps for one plan.
 */
export const MAX_ROUND_RETRIES = 1;
