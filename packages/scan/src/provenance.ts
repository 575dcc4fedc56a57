/** How each candidate was found: which query's sweep or corpus search, or similarity to which paper. */

/** What provenance needs of a candidate and of the retrievals (state.ts has them). */
export interface Found {
  doc_id: number;
  merged_ids: readonly number[];
  query_ids: readonly string[];
}
export interface Retrieval {
  query_id: string;
  via: "sweep" | "corpus";
  status: string;
  doc_ids?: readonly number[] | undefined;
}

/**
 * Each way the paper was found, in the order of its query ids: `Q1 sweep`, `Q3 corpus`, `G1 sweep`
 * (a gap query), `similar to 1361` (resmon's similar-papers search from that paper). A query is named
 * with each finished retrieval of it that returned the paper (or alone when none is on record).
 */
export function foundBy(candidate: Found, retrievals: readonly Retrieval[]): string[] {
  const ids = new Set([candidate.doc_id, ...candidate.merged_ids]);
  const out: string[] = [];
  for (const q of candidate.query_ids) {
    if (q.startsWith("similar:")) {
      out.push(`similar to ${q.slice("similar:".length)}`);
      continue;
    }
    const by = retrievals.filter(
      (t) => t.query_id === q && t.status === "done" && (t.doc_ids ?? []).some((id) => ids.has(id)),
    );
    const said = by.length ? [...new Set(by.map((t) => `${q} ${t.via}`))] : [q];
    for (const x of said) if (!out.includes(x)) out.push(x);
  }
  return out;
}

/** Whether a paper reached the scan only through similarity (no query of the plan or the gap round found it). */
export function onlyBySimilarity(candidate: Found): boolean {
  return candidate.query_ids.length > 0 && candidate.query_ids.every((q) => q.startsWith("similar:"));
}

/** Where a screening batch's papers came from: the plan's queries, the gap round's, or the expansion. */
export type BatchKind = "queries" | "gap" | "expansion";

export function batchKind(round: number, candidates: readonly (Found & { origin: string })[]): BatchKind {
  if (round > 0) return "gap";
  return candidates.length > 0 && candidates.every((c) => c.origin === "expansion") ? "expansion" : "queries";
}

/** What a screening batch of the expansion says first, so it is never read as what the queries found. */
export const EXPANSION_BATCH_NOTE =
  "This batch is the expansion: resmon's similar-papers search from your best-scored papers, not your queries. Its papers may come from sources the scan did not select and from outside the window (out_of_window); found_by names the seed; seed and distance say which seed each paper is nearest and how near (resmon's distance: smaller is closer).";

/**
 * found_by in one short line for an answer a model reads: the queries grouped by how they retrieved
 * ("corpus q1 q2 q3; sweep q1; similar to 228, 301"), the same facts as the list in fewer tokens.
 */
export function foundByLine(found: readonly string[], nearest?: number): string {
  const groups = new Map<string, string[]>();
  for (const f of found) {
    const similar = /^similar to (\d+)$/.exec(f);
    const query = /^(\S+) (sweep|corpus)$/.exec(f);
    const [key, id] = similar ? ["similar to", similar[1]] : query ? [query[2], query[1]] : ["", f];
    groups.set(key as string, [...(groups.get(key as string) ?? []), id as string]);
  }
  return [...groups]
    .map(([key, ids]) =>
      key === "similar to" ? similarWords(ids, nearest) : `${key} ${ids.join(" ")}`.trim(),
    )
    .join("; ");
}

/** Seeds named in a line: the nearest first, at most SEEDS_NAMED, then how many more (evidence.json lists them all). */
const SEEDS_NAMED = 3;
function similarWords(ids: readonly string[], nearest: number | undefined): string {
  const lead = nearest === undefined ? -1 : ids.indexOf(String(nearest));
  const ordered = lead > 0 ? [ids[lead] as string, ...ids.filter((_, i) => i !== lead)] : [...ids];
  const more = ordered.length - SEEDS_NAMED;
  return `similar to ${ordered.slice(0, SEEDS_NAMED).join(", ")}${more > 0 ? ` and ${more} more` : ""}`;
}
