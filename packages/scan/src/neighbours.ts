import type { Call } from "./call.js";
import type { PaperRecord } from "./records.js";
import type { ScanState } from "./state.js";

/** The seed each neighbour is nearest to, by doc_id, and resmon's distance where it gave one. */
export type Nearest = Record<string, { seed: number; distance: number | null }>;

/**
 * A seed's neighbours as one list for pool(): never the seed itself (resmon may list it, or a merged
 * copy of it), each neighbour remembered as a record and kept in `nearest` under the seed it is
 * nearest to. The expansion step and the feedback rounds both ask resmon for neighbours this way.
 */
export function neighbourList(
  call: Call,
  state: ScanState,
  seed: number,
  found: { records: PaperRecord[]; distances: Record<string, number> },
  nearest: Nearest,
): { id: string; must_not: string[]; doc_ids: number[] } {
  const self = new Set([seed, ...(state.candidates.find((c) => c.doc_id === seed)?.merged_ids ?? [])]);
  const others = found.records.filter((r) => !self.has(r.id));
  call.remember(others);
  for (const r of others) {
    const d = found.distances[String(r.id)] ?? null;
    const was = nearest[String(r.id)];
    if (!was || (d !== null && (was.distance === null || d < was.distance)))
      nearest[String(r.id)] = { seed, distance: d };
  }
  return { id: `similar:${seed}`, must_not: [], doc_ids: others.map((r) => r.id) };
}
