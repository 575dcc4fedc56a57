/** Per-profile depth (max_results per sweep and per-query cap), pool cap, outside-window slots, gap rule. */
export type ProfileName = "quick" | "standard" | "deep";
export type GapRule = "never" | "when_thin" | "always";

export interface Profile {
  depth: number;
  /** Pool cap for `queryCount` planned queries ("scaled" for deep). */
  poolCap: (queryCount: number) => number;
  outsideSlots: number;
  gap: GapRule;
}

// deep's pool is "scaled": 80 per planned query (6–8 queries give 480–640).
export const PROFILES: Record<ProfileName, Profile> = {
  quick: { depth: 20, poolCap: () => 250, outsideSlots: 12, gap: "never" },
  standard: { depth: 40, poolCap: () => 450, outsideSlots: 20, gap: "when_thin" },
  deep: { depth: 40, poolCap: (n) => 80 * n, outsideSlots: 30, gap: "always" },
};

export const BATCH_SIZE = 25;
export const PAGE_SIZE = 10;
export const SHORTLIST_IN_WINDOW = 40;
export const SHORTLIST_OUTSIDE = 12;
export const SHORTLIST_MIN_SCORE = 2;
export const THIN_BELOW = 5;
export const EXPANSION_SEEDS = 5;
export const EXPANSION_K = 10;
export const ALTERNATES = 5;
export const MAX_PER_FIRST_AUTHOR = 2;
/**
 * How often a round that failed, or found nothing with no source answering, is sent again: once, so a
 * scan that follows next_action sends resmon at most two rounds of sweeps for one plan.
 */
export const MAX_ROUND_RETRIES = 1;
