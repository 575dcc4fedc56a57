import {
  arxivId,
  firstAuthorSurname,
  normalizeDoi,
  type PaperRecord,
  titlesClose,
  titleWords,
  yearOf,
} from "./records.js";
import type { Candidate, RecordBook } from "./state.js";

export interface Window {
  since: string | null;
  until: string | null;
}

/** A paper is outside the window only when its date says so; an undated paper is not provably outside. */
export function outsideWindow(record: Pick<PaperRecord, "publication_date">, window: Window): boolean {
  const month = record.publication_date?.slice(0, 7);
  if (!month || !/^\d{4}-\d{2}$/.test(month)) return false;
  return (window.since !== null && month < window.since) || (window.until !== null && month > window.until);
}

function folded(text: string | null): string {
  return (text ?? "").normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
}

/** A query's must_not terms, matched case- and accent-insensitively in the title or abstract. */
export function excludedBy(record: PaperRecord, mustNot: readonly string[]): boolean {
  if (mustNot.length === 0) return false;
  const hay = `${folded(record.title)} ${folded(record.abstract)}`;
  return mustNot.some((term) => hay.includes(folded(term).trim()));
}

/** Same paper: DOI, then arXiv id, then close title with the same year or the same first author. */
export function samePaper(a: PaperRecord, b: PaperRecord): boolean {
  const da = normalizeDoi(a.doi);
  const db = normalizeDoi(b.doi);
  if (da && db) return da === db;
  const xa = arxivId(a);
  const xb = arxivId(b);
  if (xa && xb) return xa === xb;
  if (!titlesClose(a.title, b.title)) return false;
  const ya = yearOf(a.publication_date);
  const yb = yearOf(b.publication_date);
  if (ya !== null && ya === yb) return true;
  const sa = firstAuthorSurname(a.authors);
  return sa !== null && sa === firstAuthorSurname(b.authors);
}

/** Union-find grouping of doc ids that are the same paper. Returns id → representative id. */
export function groupSamePapers(ids: readonly number[], records: RecordBook): Map<number, number> {
  const parent = new Map<number, number>();
  const find = (x: number): number => {
    let r = x;
    while (parent.get(r) !== r) r = parent.get(r) ?? r;
    parent.set(x, r);
    return r;
  };
  const union = (a: number, b: number) => {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent.set(Math.max(ra, rb), Math.min(ra, rb));
  };
  const unique = [...new Set(ids)].filter((id) => records[id] !== undefined);
  for (const id of unique) parent.set(id, id);
  // Exact keys join in one pass; close titles are compared pairwise within the same first title word.
  const byKey = new Map<string, number>();
  const byFirstWord = new Map<string, number[]>();
  for (const id of unique) {
    const r = records[id] as PaperRecord;
    for (const key of [
      normalizeDoi(r.doi) && `doi:${normalizeDoi(r.doi)}`,
      arxivId(r) && `arxiv:${arxivId(r)}`,
    ]) {
      if (!key) continue;
      const seen = byKey.get(key);
      if (seen === undefined) byKey.set(key, id);
      else union(seen, id);
    }
    const word = titleWords(r.title)[0];
    if (word) byFirstWord.set(word, [...(byFirstWord.get(word) ?? []), id]);
  }
  for (const bucket of byFirstWord.values()) {
    for (let i = 0; i < bucket.length; i++) {
      for (let j = i + 1; j < bucket.length; j++) {
        const a = bucket[i] as number;
        const b = bucket[j] as number;
        if (find(a) !== find(b) && samePaper(records[a] as PaperRecord, records[b] as PaperRecord))
          union(a, b);
      }
    }
  }
  const out = new Map<number, number>();
  for (const id of unique) out.set(id, find(id));
  return out;
}

export interface PoolInput {
  /** Queries in plan order, each with the doc ids resmon returned for it (its sweeps, then its corpus search). */
  queries: { id: string; must_not: readonly string[]; doc_ids: readonly number[] }[];
  records: RecordBook;
  window: Window;
  perQuery: number;
  /** Room left in the pool. */
  cap: number;
  existing: readonly Candidate[];
  origin: Candidate["origin"];
  firstBatch: number;
  batchSize: number;
  /**
   * When given, papers are taken best first by this score (a paper's is its best copy's), not
   * round-robin over the queries, and a paper scored 0 or less, or not scored, is not taken;
   * perQuery does not apply (the cap does). Each paper is still credited to the first list holding it.
   */
  priority?: ReadonlyMap<number, number>;
}

export interface PoolOutput {
  added: Candidate[];
  /** Existing candidates that gained merged ids or query ids (doc_id → candidate, updated copy). */
  updated: Candidate[];
  /** Distinct papers each query found after must_not and the window (before the cap). */
  found: Record<string, number>;
  /** The added candidates each query's turn took, in order (a paper two queries found is credited to the first). */
  credited: Record<string, number[]>;
  dropped: { must_not: number; window: number; duplicates: number; over_cap: number };
}

/**
 * Pool one round: must_not and the window per query, dedupe (existing candidates keep their key),
 * then take candidates round-robin over the queries, at most perQuery each, until the cap.
 */
export function pool(input: PoolInput): PoolOutput {
  const dropped = { must_not: 0, window: 0, duplicates: 0, over_cap: 0 };
  const kept = input.queries.map((q) => {
    const ids: number[] = [];
    for (const id of q.doc_ids) {
      const r = input.records[id];
      if (!r) continue;
      if (excludedBy(r, q.must_not)) dropped.must_not++;
      else if (outsideWindow(r, input.window)) dropped.window++;
      else ids.push(id);
    }
    return { id: q.id, ids };
  });
  const existingIds = input.existing.flatMap((c) => [c.doc_id, ...c.merged_ids]);
  const groups = groupSamePapers([...existingIds, ...kept.flatMap((q) => q.ids)], input.records);
  // A group that holds an existing candidate is keyed by that candidate.
  const existingByGroup = new Map<number, Candidate>();
  for (const c of input.existing) {
    for (const id of [c.doc_id, ...c.merged_ids]) existingByGroup.set(groups.get(id) ?? id, c);
  }
  const members = new Map<number, Set<number>>();
  const queriesOf = new Map<number, Set<string>>();
  const order = kept.map((q) => {
    const seen: number[] = [];
    for (const id of q.ids) {
      const g = groups.get(id) ?? id;
      members.set(g, (members.get(g) ?? new Set()).add(id));
      queriesOf.set(g, (queriesOf.get(g) ?? new Set()).add(q.id));
      if (!seen.includes(g)) seen.push(g);
      else dropped.duplicates++;
    }
    return { id: q.id, groups: seen };
  });
  const found: Record<string, number> = {};
  for (const q of order) found[q.id] = q.groups.length;

  const updated = new Map<number, Candidate>();
  for (const [g, c] of existingByGroup) {
    const ids = members.get(g);
    const qs = queriesOf.get(g);
    if (!ids && !qs) continue;
    const merged = [...new Set([...c.merged_ids, ...(ids ?? [])])]
      .filter((id) => id !== c.doc_id)
      .sort((a, b) => a - b);
    const query_ids = [...new Set([...c.query_ids, ...(qs ?? [])])];
    if (merged.length !== c.merged_ids.length || query_ids.length !== c.query_ids.length) {
      updated.set(c.doc_id, { ...c, merged_ids: merged, query_ids });
    }
  }

  const taken = new Set<number>();
  const added: Candidate[] = [];
  const credited: Record<string, number[]> = Object.fromEntries(order.map((q) => [q.id, []]));
  const perQuery = new Map(order.map((q) => [q.id, 0]));
  const cursors = order.map(() => 0);
  const take = (g: number, listId: string) => {
    taken.add(g);
    const ids = [...(members.get(g) ?? [g])].sort((a, b) => a - b);
    const [docId, ...merged] = ids as [number, ...number[]];
    added.push({
      doc_id: docId,
      merged_ids: merged,
      query_ids: [...(queriesOf.get(g) ?? [])],
      origin: input.origin,
      out_of_window: false,
      batch: input.firstBatch + Math.floor(added.length / input.batchSize),
    });
    perQuery.set(listId, (perQuery.get(listId) ?? 0) + 1);
    credited[listId]?.push(docId);
  };
  if (input.priority) {
    const priority = input.priority;
    const best = new Map<number, number>();
    for (const [g, ids] of members)
      best.set(g, Math.max(...[...ids].map((id) => priority.get(id) ?? Number.NEGATIVE_INFINITY)));
    const firstList = new Map<number, string>();
    for (const q of order) for (const g of q.groups) if (!firstList.has(g)) firstList.set(g, q.id);
    const ranked = [...firstList.keys()]
      .filter((g) => !existingByGroup.has(g) && (best.get(g) ?? 0) > 0)
      .sort((a, b) => (best.get(b) ?? 0) - (best.get(a) ?? 0) || a - b);
    for (const g of ranked.slice(0, Math.max(0, input.cap))) take(g, firstList.get(g) as string);
  }
  let progressed = !input.priority;
  while (progressed && added.length < input.cap) {
    progressed = false;
    for (const [qi, q] of order.entries()) {
      if (added.length >= input.cap) break;
      if ((perQuery.get(q.id) ?? 0) >= input.perQuery) continue;
      let cursor = cursors[qi] ?? 0;
      while (cursor < q.groups.length) {
        const g = q.groups[cursor++] as number;
        if (existingByGroup.has(g) || taken.has(g)) continue;
        take(g, q.id);
        progressed = true;
        break;
      }
      cursors[qi] = cursor;
    }
  }
  const allGroups = new Set(order.flatMap((q) => q.groups).filter((g) => !existingByGroup.has(g)));
  dropped.over_cap = allGroups.size - taken.size;
  return { added, updated: [...updated.values()], found, credited, dropped };
}

/** Existing candidates replaced by their updated copies (merged ids, query ids) from pool(). */
export function applyUpdates(state: { candidates: Candidate[] }, updated: readonly Candidate[]): void {
  const byId = new Map(updated.map((c) => [c.doc_id, c]));
  state.candidates = state.candidates.map((c) => byId.get(c.doc_id) ?? c);
}

/** Split doc ids into batches of `size`, in order. */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
