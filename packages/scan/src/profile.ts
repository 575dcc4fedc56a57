/** Per-profile depth (max_results per sweep and per-query cap), pool cap, outside-window slots, gap rule. */
export type ProfileName = "quick" | "standard" | "deep";
export type GapRule = "never" | "when_thin" | "always";

export interface Profile {
  depth: number;
  /**
   * What a whole scan at this profile may cost the model, in tokens (cl100k of every argument it
   * sends and every answer it reads). The screening budget follows from it (feedback.ts screenBudget).
   */
  tokenBudget: number;
  /** Pool cap for `queryCount` planned queries ("scaled" for deep). */
  poolCap: (queryCount: number) => number;
  outsideSlots: number;
  gap: GapRule;
}

// deep's pool is "scaled": 80 per planned query (6–8 queries give 480–640).
// Token budgets: the share of a 200,000-token context a scan may take — quick an eighth, standard a
// fifth (issue 44's 40,000), deep a half. Set from that share, never from what a scan found.
export const PROFILES: Record<ProfileName, Profile> = {
  quick: { depth: 20, tokenBudget: 25_000, poolCap: () => 250, outsideSlots: 12, gap: "never" },
  standard: { depth: 40, tokenBudget: 40_000, poolCap: () => 450, outsideSlots: 20, gap: "when_thin" },
  deep: { depth: 40, tokenBudget: 100_000, poolCap: (n) => 80 * n, outsideSlots: 30, gap: "always" },
};

/** What a model screens in one call: the design's batch. */
export const BATCH_SIZE = 25;

/**
 * What the model's work costs, in tokens, measured with `pnpm bench:scan-quality` (its "tokens
 * by part" line: the most over the five reviews at standard) — costs, not findings. A screened
 * paper: its item in a batch, its share of the batch's envelope, and its score sent back. A ranked
 * paper: its record on a shortlist page, its line in page 0's overview, its entry sent back with a
 * cite. The rest: scan_start's arguments, the answers that carry no paper (the gap question,
 * verify_ranked), the result read twice (scan_verify, scan_result).
 */
export const TOKENS_PER_SCREENED_PAPER = 187;
export const TOKENS_PER_RANKED_PAPER = 297;
export const TOKENS_BESIDES_PAPERS = 4_800;
/**
 * Works asked of resmon's similar papers per paper scored 3 or 0: a feedback round releases one
 * batch at most, so no list need reach deeper than a batch of works. resmon lists each source's copy
 * of a work apart, so the request asks for that many per selected source (feedback.ts).
 */
export const FEEDBACK_WORKS = BATCH_SIZE;
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
