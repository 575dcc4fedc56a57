/**
 * The scan-quality bench's simulated screener: how the model scores a paper (0–3) given what the
 * experts decided about it, with stated, seeded noise (issue 44):
 *
 * | the paper is                          | 3    | 2    | 1    | 0    |
 * | included by the review's experts      | 0.80 | 0.15 | 0.05 | —    |
 * | excluded by them (a hard negative)    | —    | 0.25 | 0.50 | 0.25 |
 * | another review's record               | —    | —    | —    | 1    |
 *
 * A draw is a function of (seed, review, work): the same paper shown again, or in another run of
 * the same seed, gets the same score, so a change to the scan is compared on the same judgements.
 */
import { createRng } from "@resmon/testkit";

export type Relation = "included" | "excluded" | "other";
export type Score = 0 | 1 | 2 | 3;

export const SCREENER_RATES: Record<Relation, readonly (readonly [Score, number])[]> = {
  included: [
    [3, 0.8],
    [2, 0.15],
    [1, 0.05],
  ],
  excluded: [
    [2, 0.25],
    [1, 0.5],
    [0, 0.25],
  ],
  other: [[0, 1]],
};

function fnv1a(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

/** The score for one paper: a seeded uniform draw read against the relation's rates. */
export function simulatedScore(seed: number, review: string, work: string, relation: Relation): Score {
  const u = createRng(fnv1a(`${seed}|${review}|${work}`)).next();
  let at = 0;
  const rates = SCREENER_RATES[relation];
  for (const [score, p] of rates) {
    at += p;
    if (u < at) return score;
  }
  return rates[rates.length - 1]?.[0] ?? 0;
}

/**
 * Criteria the simulated model marks as met: all of them at 3, all but the last at 2, the first at
 * 1, none at 0 (the scan's coverage counts them; the figures do not read them).
 */
export function criteriaHit(score: Score, criteria: readonly string[]): string[] {
  if (score === 3) return [...criteria];
  if (score === 2) return criteria.slice(0, Math.max(1, criteria.length - 1));
  if (score === 1) return criteria.slice(0, 1);
  return [];
}
