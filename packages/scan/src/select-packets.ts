/** Which ranked papers make the result (the packets) and which wait as alternates. */
import type { RankedEntry, ScreenScore } from "@resmon/mcp-contract";
import { chooseMix, type LeftOut, mixWords, type Slot } from "./mix.js";
import { ALTERNATES } from "./profile.js";
import { firstAuthor, type PaperRecord } from "./records.js";
import type { Candidate, Verdict } from "./state.js";

/** A ranked paper with what the scan holds of it: its candidate, verdict, record at retrieval and screening score. */
export interface Ranked {
  entry: RankedEntry;
  candidate: Candidate;
  verdict: Verdict;
  record: PaperRecord | undefined;
  score: ScreenScore | undefined;
}

function authorKey(r: Ranked): string | null {
  const a = firstAuthor(r.verdict.record?.authors ?? r.record?.authors);
  return a ? a.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase() : null;
}

/** A chosen paper's place in the result: its position (1…) and the slot that put it there. */
export interface Placed {
  paper: Ranked;
  position: number;
  slot: Slot;
  /** The slot in words, true of this paper (a backfill says why the paper above it could not take the place). */
  words: string;
}

/** An alternate: a ranked paper the result left out, and why. */
export interface Alternate {
  paper: Ranked;
  left_out: LeftOut;
  words: string;
}

/**
 * Choose the packets (mix.ts): retractions out; at most 2 per first author; a review and a
 * contradicting paper when one was ranked; the foundational (out-of-window) slots; then the window
 * in rank order. Each chosen paper has its position and slot, each alternate why it was left out,
 * and `words` says the whole mix in a sentence.
 */
export function selectPackets(
  ranked: readonly Ranked[],
  top: number,
  foundational: number,
  since: string | null = null,
): { chosen: Placed[]; alternates: Alternate[]; words: string } {
  const mix = chooseMix(ranked, top, foundational, authorKey);
  return {
    chosen: mix.chosen.map((c, i) => ({ paper: c.paper, position: i + 1, slot: c.slot, words: c.words })),
    alternates: mix.leftOut
      .slice(0, ALTERNATES)
      .map((l) => ({ paper: l.paper, left_out: l.reason, words: l.words })),
    words: mixWords(mix, top, since),
  };
}
