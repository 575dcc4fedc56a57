/** Which ranked papers make the result (the packets) and which wait as alternates. */
import type { RankedEntry, ScreenScore } from "@resmon/mcp-contract";
import { ALTERNATES, MAX_PER_FIRST_AUTHOR } from "./profile.js";
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

/**
 * Choose the packets: retractions out; at most 2 per first author; a review and a contradicting
 * paper when one was ranked; the foundational (out-of-window) slots; then backfill in rank order.
 */
export function selectPackets(
  ranked: readonly Ranked[],
  top: number,
  foundational: number,
): { chosen: Ranked[]; alternates: Ranked[] } {
  const eligible = ranked
    .filter((r) => r.verdict.retraction === null)
    .sort((a, b) => a.entry.rank - b.entry.rank || a.entry.doc_id - b.entry.doc_id);
  const chosen: Ranked[] = [];
  const perAuthor = new Map<string, number>();
  const add = (r: Ranked | undefined): boolean => {
    if (!r || chosen.includes(r) || chosen.length >= top) return false;
    const key = authorKey(r);
    if (key !== null && (perAuthor.get(key) ?? 0) >= MAX_PER_FIRST_AUTHOR) return false;
    if (key !== null) perAuthor.set(key, (perAuthor.get(key) ?? 0) + 1);
    chosen.push(r);
    return true;
  };
  const inWindow = (r: Ranked) => !r.candidate.out_of_window;
  for (const role of ["review", "contradicting"] as const) {
    for (const r of eligible.filter((x) => x.entry.role === role && inWindow(x))) if (add(r)) break;
  }
  let slots = foundational;
  for (const r of eligible.filter((x) => !inWindow(x) || x.entry.role === "foundational")) {
    if (slots <= 0) break;
    if (add(r)) slots--;
  }
  // Out-of-window papers enter only through the foundational slots; the window fills the rest.
  for (const r of eligible.filter(inWindow)) {
    if (chosen.length >= top) break;
    add(r);
  }
  chosen.sort((a, b) => a.entry.rank - b.entry.rank || a.entry.doc_id - b.entry.doc_id);
  const alternates = eligible.filter((r) => !chosen.includes(r)).slice(0, ALTERNATES);
  return { chosen, alternates };
}
