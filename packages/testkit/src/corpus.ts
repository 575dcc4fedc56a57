/**
 * A real records file as the stand-in's documents (`serve --corpus FILE`): each record (the format
 * of ../shared/datasets/synergy/records.jsonl.gz, gzip or plain) is one work, served as one
 * document per source that would hold it, each copy carrying the small differences real sources
 * have, so the same work arrives more than once. Sweeps and corpus search rank by Okapi BM25;
 * `similar` is the cosine of TF-IDF vectors. This is the stand-in's own stated model of a source
 * (the testkit README), deterministic, not a claim about how any real source ranks.
 */
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import type { Paper } from "./model.js";
import { words } from "./vectors.js";

/** The fields of a record the stand-in reads; any other field is ignored. */
export interface CorpusRecord {
  /** The work's key (an OpenAlex URL in SYNERGY). */
  id: string;
  doi: string | null;
  pmid: string | null;
  title: string;
  abstract: string | null;
  year: number | null;
  authors: string[];
  venue: string | null;
}

export const CORPUS_SOURCES = ["openalex", "pubmed", "crossref"] as const;
export type CorpusSource = (typeof CORPUS_SOURCES)[number];

/** Okapi BM25's parameters. */
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

const str = (x: unknown): string | null => (typeof x === "string" && x.trim() ? x : null);

/** Records from a JSON-lines file, gzip (by its magic bytes) or plain; a line without an id is refused. */
export function readCorpus(path: string): CorpusRecord[] {
  const raw = readFileSync(path);
  const text = (raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw) : raw).toString("utf8");
  const out: CorpusRecord[] = [];
  for (const [i, line] of text.split("\n").entries()) {
    if (!line.trim()) continue;
    const r = JSON.parse(line) as Record<string, unknown>;
    const id = str(r.id);
    if (!id) throw new Error(`${path}:${i + 1}: a record needs an id`);
    out.push({
      id,
      doi: str(r.doi),
      pmid: str(r.pmid),
      // A few real records have no title: kept, with an empty one, as resmon keeps what a source sent.
      title: str(r.title) ?? "",
      abstract: str(r.abstract),
      year: typeof r.year === "number" && Number.isInteger(r.year) ? r.year : null,
      authors: Array.isArray(r.authors) ? r.authors.filter((a): a is string => typeof a === "string") : [],
      venue: str(r.venue),
    });
  }
  return out;
}

const bareDoi = (doi: string) => doi.replace(/^https?:\/\/(dx\.)?doi\.org\//i, "");
const tail = (url: string) => url.replace(/\/+$/, "").split("/").pop() ?? url;

function nameParts(name: string): { surname: string; given: string[] } {
  const parts = name.trim().split(/\s+/);
  return { surname: parts.pop() ?? name, given: parts };
}

/** How each source writes the same work: DOI form and case, title punctuation, author form. */
function copyOf(r: CorpusRecord, source: CorpusSource, index: number): Omit<Paper, "id"> {
  const common = {
    abstract: r.abstract,
    publication_date: r.year === null ? null : `${r.year}-01-01`,
    categories: r.venue ?? "",
    first_seen_at: "2026-11-01 00:00:00",
    metadata_hash: `corpus-${source}-${index}`,
  };
  switch (source) {
    case "openalex":
      // OpenAlex: the DOI as a URL, the title as given, display names.
      return {
        ...common,
        source_repository: source,
        external_id: tail(r.id),
        doi: r.doi,
        title: r.title,
        authors: r.authors.join(", "),
        url: r.id,
      };
    case "pubmed": {
      // PubMed: a bare lower-case DOI when it has one, a title ending in a period, MEDLINE names ("Chou R").
      const pmid = tail(r.pmid ?? "");
      return {
        ...common,
        source_repository: source,
        external_id: pmid,
        doi: r.doi ? bareDoi(r.doi).toLowerCase() : null,
        title: !r.title.trim() || /[.?!]$/.test(r.title.trim()) ? r.title.trim() : `${r.title.trim()}.`,
        authors: r.authors
          .map((a) => {
            const { surname, given } = nameParts(a);
            return `${surname} ${given.map((g) => g[0] ?? "").join("")}`.trim();
          })
          .join(", "),
        url: `https://pubmed.ncbi.nlm.nih.gov/${pmid}/`,
      };
    }
    case "crossref": {
      // Crossref: a bare DOI, upper case as some publishers deposit it (every other record), a
      // colon written as a dash, "Surname, Given; …" names.
      const doi = bareDoi(r.doi ?? "");
      return {
        ...common,
        source_repository: source,
        external_id: doi,
        doi: index % 2 === 1 ? doi.toUpperCase() : doi,
        title: r.title.replace(/\s*:\s*/g, " - ").replace(/\.$/, ""),
        authors: r.authors
          .map((a) => {
            const { surname, given } = nameParts(a);
            return given.length ? `${surname}, ${given.join(" ")}` : surname;
          })
          .join("; "),
        url: `https://doi.org/${doi}`,
      };
    }
  }
}

/** The sources that serve a record: every one OpenAlex, one with a PMID PubMed, one with a DOI Crossref. */
export function sourcesOf(r: CorpusRecord): CorpusSource[] {
  return CORPUS_SOURCES.filter((s) => s === "openalex" || (s === "pubmed" ? r.pmid : r.doi));
}

interface Posting {
  work: number;
  tf: number;
}

/** The corpus: the works, their copies as papers, and the two rankings over title and abstract. */
export class Corpus {
  readonly papers: Paper[] = [];
  /** paper id → work index. */
  readonly workOf = new Map<number, number>();
  /** work index → its papers' ids, per source. */
  private readonly copies: Map<CorpusSource, number>[] = [];
  private readonly postings = new Map<string, Posting[]>();
  private readonly lengths: number[] = [];
  private readonly avgLength: number;
  /** TF-IDF vectors per work, L2-normalised (term → weight). */
  private readonly vectors: Map<string, number>[] = [];

  constructor(readonly records: readonly CorpusRecord[]) {
    let nextId = 1;
    records.forEach((r, w) => {
      const bySource = new Map<CorpusSource, number>();
      for (const source of sourcesOf(r)) {
        const paper: Paper = { id: nextId++, ...copyOf(r, source, w) };
        this.papers.push(paper);
        this.workOf.set(paper.id, w);
        bySource.set(source, paper.id);
      }
      this.copies.push(bySource);
      const terms = words(`${r.title} ${r.abstract ?? ""}`);
      this.lengths.push(terms.length);
      const tf = new Map<string, number>();
      for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const [term, n] of tf) {
        const list = this.postings.get(term);
        if (list) list.push({ work: w, tf: n });
        else this.postings.set(term, [{ work: w, tf: n }]);
      }
    });
    const n = records.length;
    this.avgLength = this.lengths.reduce((a, b) => a + b, 0) / Math.max(1, n);
    for (let w = 0; w < n; w++) this.vectors.push(new Map());
    for (const [term, list] of this.postings) {
      const idf = Math.log(n / list.length);
      for (const p of list) this.vectors[p.work]?.set(term, (1 + Math.log(p.tf)) * idf);
    }
    for (const v of this.vectors) {
      let norm = 0;
      for (const x of v.values()) norm += x * x;
      norm = Math.sqrt(norm);
      if (norm > 0) for (const [t, x] of v) v.set(t, x / norm);
    }
  }

  /** The work key (the record's id) of a paper, or null for a paper not from the corpus. */
  workKey(paperId: number): string | null {
    const w = this.workOf.get(paperId);
    return w === undefined ? null : (this.records[w]?.id ?? null);
  }

  /** BM25 of every work with a positive score for the query's distinct words: work index → score. */
  bm25(query: string): Map<number, number> {
    const n = this.records.length;
    const scores = new Map<number, number>();
    for (const term of new Set(words(query))) {
      const list = this.postings.get(term);
      if (!list) continue;
      const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
      for (const { work, tf } of list) {
        const norm = 1 - BM25_B + (BM25_B * (this.lengths[work] ?? 0)) / this.avgLength;
        const s = (idf * tf * (BM25_K1 + 1)) / (tf + BM25_K1 * norm);
        scores.set(work, (scores.get(work) ?? 0) + s);
      }
    }
    return scores;
  }

  /** Works by BM25 for the query, best first (ties: file order), those with a positive score only. */
  rankedWorks(query: string): { work: number; score: number }[] {
    return [...this.bm25(query)]
      .map(([work, score]) => ({ work, score }))
      .sort((a, b) => b.score - a.score || a.work - b.work);
  }

  /** A source's papers for a sweep: the top `max` of the works it serves that pass `keep`, by BM25. */
  sweep(query: string, source: string, max: number, keep: (p: Paper) => boolean): Paper[] {
    const out: Paper[] = [];
    for (const { work } of this.rankedWorks(query)) {
      if (out.length >= max) break;
      const id = this.copies[work]?.get(source as CorpusSource);
      const paper = id === undefined ? undefined : this.papers[id - 1];
      if (paper && keep(paper)) out.push(paper);
    }
    return out;
  }

  /** The cosine of two papers' TF-IDF vectors (0 when either is not from the corpus). */
  cosine(a: number, b: number): number {
    const va = this.vectors[this.workOf.get(a) ?? -1];
    const vb = this.vectors[this.workOf.get(b) ?? -1];
    if (!va || !vb) return 0;
    const [small, large] = va.size <= vb.size ? [va, vb] : [vb, va];
    let dot = 0;
    for (const [t, x] of small) dot += x * (large.get(t) ?? 0);
    return dot;
  }

  /** Every other paper by the cosine of its TF-IDF vector with this one's, highest first (ties: lower id). */
  similarTo(paperId: number, k: number): { paper: Paper; cosine: number }[] {
    const seed = this.vectors[this.workOf.get(paperId) ?? -1];
    if (!seed) return [];
    const dots = new Map<number, number>();
    for (const [term, x] of seed) {
      for (const { work } of this.postings.get(term) ?? []) {
        dots.set(work, (dots.get(work) ?? 0) + x * (this.vectors[work]?.get(term) ?? 0));
      }
    }
    return (
      [...dots]
        .flatMap(([work, cosine]) => [...(this.copies[work]?.values() ?? [])].map((id) => ({ id, cosine })))
        // A paper that shares no weighted word with this one is not like it.
        .filter((x) => x.id !== paperId && x.cosine > 0)
        .sort((a, b) => b.cosine - a.cosine || a.id - b.id)
        .slice(0, k)
        .flatMap(({ id, cosine }) => {
          const paper = this.papers[id - 1];
          return paper ? [{ paper, cosine }] : [];
        })
    );
  }
}
