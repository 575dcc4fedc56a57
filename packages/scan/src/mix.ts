/** The result's mix: which ranked papers take its places, in which slot, and why the others were left out. */
import { MAX_PER_FIRST_AUTHOR } from "./profile.js";

/** Why a paper holds its place in the result. */
export type Slot = "core" | "review" | "contradicting" | "foundational" | "backfill";
/** Why a ranked paper is not in the result (retractions are listed apart). */
export type LeftOut = "author_cap" | "outside_window" | "no_room";

/** What the mix needs of a ranked paper (emit's Ranked has it). */
export interface MixPaper {
  entry: { doc_id: number; rank: number; role?: string | undefined };
  candidate: { out_of_window: boolean };
  verdict: { retraction: unknown };
}

export interface Mix<R extends MixPaper> {
  /** In result order (the model's rank order), each with its slot and that slot in words. */
  chosen: { paper: R; slot: Slot; words: string }[];
  /** Every eligible ranked paper not chosen, in rank order, with why (and why in words). */
  leftOut: { paper: R; reason: LeftOut; words: string }[];
  /** Foundational slots no paper took (their places went to the window, by rank). */
  foundationalUnused: number;
}

/** A backfill's words: why the paper ranked above it could not take the place. */
function backfillWords(above: LeftOut): string {
  return above === "author_cap"
    ? `backfill: a paper ranked above it was left out (its first author already had ${MAX_PER_FIRST_AUTHOR} papers)`
    : "backfill: a paper ranked above it is outside the window and no foundational slot was left for it";
}

export const SLOT_WORDS: Record<Slot, string> = {
  core: "by rank",
  review: "the review slot",
  contradicting: "the contradicting slot",
  foundational: "a foundational slot",
  backfill: "backfill: a paper ranked above it was left out",
};

export const LEFT_OUT_WORDS: Record<LeftOut, string> = {
  author_cap: `its first author already has ${MAX_PER_FIRST_AUTHOR} papers in the result`,
  outside_window: "outside the window, and no foundational slot was left",
  no_room: "no room: every place went to a paper ranked above it or to a reserved slot",
};

/**
 * Choose the result: retractions out; at most MAX_PER_FIRST_AUTHOR per first author; a review and
 * a contradicting paper when one was ranked in the window; the foundational slots (papers outside
 * the window, or ranked foundational); then the window in rank order. Every chosen paper says which
 * of these put it there, and every eligible paper left out says why.
 */
export function chooseMix<R extends MixPaper>(
  ranked: readonly R[],
  top: number,
  foundational: number,
  authorKey: (paper: R) => string | null,
): Mix<R> {
  const eligible = ranked
    .filter((r) => r.verdict.retraction === null)
    .sort((a, b) => a.entry.rank - b.entry.rank || a.entry.doc_id - b.entry.doc_id);
  const chosen = new Map<R, Slot>();
  const refused = new Map<R, LeftOut>();
  const perAuthor = new Map<string, number>();
  const add = (r: R, slot: Slot): boolean => {
    if (chosen.has(r) || chosen.size >= top) return false;
    const key = authorKey(r);
    if (key !== null && (perAuthor.get(key) ?? 0) >= MAX_PER_FIRST_AUTHOR) {
      if (!refused.has(r)) refused.set(r, "author_cap");
      return false;
    }
    if (key !== null) perAuthor.set(key, (perAuthor.get(key) ?? 0) + 1);
    chosen.set(r, slot);
    return true;
  };
  const inWindow = (r: R) => !r.candidate.out_of_window;
  for (const role of ["review", "contradicting"] as const) {
    for (const r of eligible.filter((x) => x.entry.role === role && inWindow(x))) if (add(r, role)) break;
  }
  let slots = foundational;
  for (const r of eligible.filter((x) => !inWindow(x) || x.entry.role === "foundational")) {
    if (slots <= 0) break;
    if (add(r, "foundational")) slots--;
  }
  // Out-of-window papers enter only through the foundational slots; the window fills the rest, and a
  // paper that fills a place a better-ranked one could not take is backfill (saying why that one could not).
  let skippedAbove: LeftOut | null = null;
  const backfill = new Map<R, string>();
  for (const r of eligible) {
    if (chosen.size >= top) break;
    if (chosen.has(r)) continue;
    if (!inWindow(r)) {
      skippedAbove ??= refused.get(r) ?? "outside_window";
      continue;
    }
    if (add(r, skippedAbove ? "backfill" : "core")) {
      if (skippedAbove) backfill.set(r, backfillWords(skippedAbove));
    } else skippedAbove ??= refused.get(r) ?? "author_cap";
  }
  const reserved = [...chosen.values()].some(
    (s) => s === "review" || s === "contradicting" || s === "foundational",
  );
  const leftWords = (reason: LeftOut) =>
    reason === "no_room" && !reserved
      ? "no room: every place went to a paper ranked above it"
      : LEFT_OUT_WORDS[reason];
  return {
    chosen: eligible
      .filter((r) => chosen.has(r))
      .map((paper) => {
        const slot = chosen.get(paper) as Slot;
        return { paper, slot, words: backfill.get(paper) ?? SLOT_WORDS[slot] };
      }),
    leftOut: eligible
      .filter((r) => !chosen.has(r))
      .map((paper) => {
        const reason = refused.get(paper) ?? (inWindow(paper) ? "no_room" : "outside_window");
        return { paper, reason, words: leftWords(reason) };
      }),
    foundationalUnused: Math.min(slots, top),
  };
}

/** The mix in a sentence: how the places were filled and why the rest were left out. */
export function mixWords<R extends MixPaper>(mix: Mix<R>, top: number, since: string | null): string {
  const count = <T>(list: readonly T[], pick: (x: T) => boolean) => list.filter(pick).length;
  const slots = (["review", "contradicting", "foundational", "core", "backfill"] as const)
    .map((s) => [s, count(mix.chosen, (c) => c.slot === s)] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) =>
      s === "core"
        ? `${n} by rank`
        : s === "backfill"
          ? `${n} backfill`
          : s === "foundational" && since
            ? `${n} foundational (outside the window from ${since})`
            : `${n} ${s}`,
    );
  const unused = mix.foundationalUnused
    ? `; ${mix.foundationalUnused} foundational slot${mix.foundationalUnused === 1 ? "" : "s"} unused (no paper outside the window or ranked foundational took ${mix.foundationalUnused === 1 ? "it" : "them"}), so ${mix.foundationalUnused === 1 ? "its place went" : "their places went"} to the window by rank`
    : "";
  const filled = `${mix.chosen.length} of ${top} places: ${slots.join(", ") || "none"}${unused}`;
  if (mix.leftOut.length === 0) return `${filled}.`;
  const why = (["author_cap", "outside_window", "no_room"] as const)
    .map((r) => [r, count(mix.leftOut, (l) => l.reason === r)] as const)
    .filter(([, n]) => n > 0)
    .map(([r, n]) =>
      r === "author_cap"
        ? `${n} for the author cap`
        : r === "outside_window"
          ? `${n} outside the window`
          : `${n} for want of room`,
    );
  return `${filled}; ${mix.leftOut.length} ranked papers left out (${why.join(", ")}).`;
}

/**
 * Said when a scan with a window starts: each foundational slot can give a place in the result to a
 * paper from outside the window, whatever its rank, so a "recent work" brief knows before it ranks.
 */
export function foundationalNote(
  inputs: { since: string | null; until: string | null; foundational: number; top: number },
  defaulted: boolean,
): string | null {
  if (inputs.foundational === 0 || (inputs.since === null && inputs.until === null)) return null;
  const window =
    inputs.since && inputs.until
      ? `${inputs.since} to ${inputs.until}`
      : inputs.since
        ? `from ${inputs.since}`
        : `up to ${inputs.until}`;
  return `foundational: ${inputs.foundational}${defaulted ? " (the default)" : ""} keeps up to ${inputs.foundational} of the ${inputs.top} places for papers outside the window (${window}) or ranked foundational, whatever their rank, so older papers can take places from better-ranked ones in the window. If the person wants recent work only, ask them, then start a new scan (a new scan_id) with foundational: 0.`;
}
