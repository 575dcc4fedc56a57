import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Corpus, type CorpusRecord, readCorpus } from "../src/corpus.js";
import type { Testkit } from "../src/index.js";
import { call, startKit, tempDir } from "./helpers.js";

const record = (id: string, title: string, extra: Partial<CorpusRecord> = {}): CorpusRecord => ({
  id: `https://openalex.org/${id}`,
  doi: null,
  pmid: null,
  title,
  abstract: null,
  year: 2020,
  authors: ["Ada Lovelace", "Alan Turing"],
  venue: null,
  ...extra,
});

// Four works; "cat" is in two of them (document lengths 3 and 1, average 1.75).
const HAND = [
  record("W1", "cat cat dog"),
  record("W2", "cat"),
  record("W3", "dog bird"),
  record("W4", "fish"),
];

describe("BM25 over a hand-made corpus", () => {
  const corpus = new Corpus(HAND);

  it("scores as Okapi BM25 with k1 1.2 and b 0.75, worked by hand", () => {
    // idf(cat) = ln(1 + (4 − 2 + 0.5) / (2 + 0.5)) = ln 2
    // W2: 1 × 2.2 / (1 + 1.2 × (0.25 + 0.75 × 1 / 1.75)) × ln 2
    // W1: 2 × 2.2 / (2 + 1.2 × (0.25 + 0.75 × 3 / 1.75)) × ln 2
    const scores = corpus.bm25("cat");
    expect(scores.get(1)).toBeCloseTo((2.2 / (1 + 1.2 * (0.25 + 0.75 / 1.75))) * Math.LN2, 10);
    expect(scores.get(0)).toBeCloseTo((4.4 / (2 + 1.2 * (0.25 + (0.75 * 3) / 1.75))) * Math.LN2, 10);
    expect(scores.has(2)).toBe(false);
  });

  it("ranks the shorter document first for one shared word, and sums over the query's words", () => {
    expect(corpus.rankedWorks("cat").map((r) => r.work)).toEqual([1, 0]);
    // "dog" lifts W1 above W2, W3 follows on "dog" alone, and W4 shares no word.
    expect(corpus.rankedWorks("cat dog").map((r) => r.work)).toEqual([0, 1, 2]);
    expect(corpus.rankedWorks("fish bird").map((r) => r.work)).toEqual([3, 2]);
  });

  it("similar ranks by the cosine of TF-IDF vectors", () => {
    const [a, b, c] = new Corpus([
      record("W1", "hair cortisol obesity"),
      record("W2", "hair cortisol children"),
      record("W3", "muscle relaxant spasticity"),
    ]).similarTo(1, 5);
    expect(a?.paper.id).toBe(2);
    expect(a?.cosine).toBeGreaterThan(0);
    expect(b).toBeUndefined();
    expect(c).toBeUndefined();
  });
});

describe("the sources' copies of one work", () => {
  const work = record("W9", "Muscle relaxants: a review", {
    doi: "https://doi.org/10.1000/Abc.1",
    pmid: "https://pubmed.ncbi.nlm.nih.gov/123",
    authors: ["Roger Chou", "Kim Peterson"],
  });
  const corpus = new Corpus([record("W0", "other", { doi: "https://doi.org/10.1/x" }), work]);
  const copies = corpus.papers.filter((p) => corpus.workKey(p.id) === work.id);

  it("openalex serves every record, pubmed those with a PMID, crossref those with a DOI", () => {
    expect(corpus.papers.map((p) => p.source_repository)).toEqual([
      "openalex",
      "crossref",
      "openalex",
      "pubmed",
      "crossref",
    ]);
  });

  it("differ as real sources do: DOI case and prefix, title punctuation, author form", () => {
    const by = Object.fromEntries(copies.map((p) => [p.source_repository, p]));
    expect(by.openalex).toMatchObject({
      doi: "https://doi.org/10.1000/Abc.1",
      authors: "Roger Chou, Kim Peterson",
      external_id: "W9",
    });
    expect(by.pubmed).toMatchObject({
      doi: "10.1000/abc.1",
      authors: "Chou R, Peterson K",
      external_id: "123",
    });
    expect(by.crossref).toMatchObject({
      doi: "10.1000/ABC.1",
      title: "Muscle relaxants - a review",
      authors: "Chou, Roger; Peterson, Kim",
    });
    expect(new Set(copies.map((p) => p.title)).size).toBe(3);
  });
});

describe("serve --corpus", () => {
  let kit: Testkit;
  let done: () => Promise<void>;
  beforeAll(async () => {
    const file = join(tempDir(), "records.jsonl.gz");
    const lines = [
      ...HAND,
      record("W5", "hair cortisol and body mass index", {
        doi: "https://doi.org/10.5/h",
        pmid: "https://pubmed.ncbi.nlm.nih.gov/5",
      }),
    ].map((r) => JSON.stringify({ ...r, label_included: 1, referenced_works: [] }));
    writeFileSync(file, gzipSync(`${lines.join("\n")}\n`));
    expect(readCorpus(file)).toHaveLength(5);
    ({ kit, done } = await startKit({ corpus: file, seed: undefined }));
    kit.setAdmission({ runDurationMs: 0 });
  });
  afterAll(() => done());

  async function sweep(query: string, maxResults: number): Promise<Record<string, unknown>[]> {
    const started = await call(kit, "POST", "/api/search/sweep", {
      query,
      repositories: ["openalex", "pubmed", "crossref"],
      max_results: maxResults,
    });
    const id = (started.json as { execution_id: number }).execution_id;
    for (let i = 0; i < 100; i++) {
      const run = await call(kit, "GET", `/api/executions/${id}`);
      if ((run.json as { status: string }).status !== "running") break;
      await new Promise((r) => setTimeout(r, 5));
    }
    const refs = await call(kit, "GET", `/api/executions/${id}/references?format=json&include_ids=true`);
    return refs.json as Record<string, unknown>[];
  }

  it("makes the records the documents, with no history naming the seed's papers", () => {
    expect(kit.seedSummary).toMatchObject({ papers: 7, executions: 0, matches: 0 });
  });

  it("a sweep returns each source's top max_results by BM25, so a work arrives once per source", async () => {
    const rows = await sweep("hair cortisol", 1);
    expect(rows.map((r) => r.source_repository).sort()).toEqual(["crossref", "openalex", "pubmed"]);
    expect(new Set(rows.map((r) => kit.corpusWork(r.id as number)))).toEqual(
      new Set(["https://openalex.org/W5"]),
    );
    const cats = await sweep("cat", 5);
    expect(cats.map((r) => kit.corpusWork(r.id as number))).toEqual([
      "https://openalex.org/W2",
      "https://openalex.org/W1",
    ]);
  });

  it("corpus search ranks by BM25 too, and similar names its model", async () => {
    const page = await call(kit, "POST", "/api/explorer/search", {
      query: "cat dog",
      sort: "similarity",
      limit: 3,
    });
    const results = (page.json as { results: { id: number; distance: number }[] }).results;
    expect(results.map((r) => kit.corpusWork(r.id))).toEqual([
      "https://openalex.org/W1",
      "https://openalex.org/W2",
      "https://openalex.org/W3",
    ]);
    expect(results[0]?.distance).toBe(0);
    const similar = await call(kit, "GET", "/api/documents/1/similar?k=2");
    expect(similar.json).toMatchObject({ model: "testkit-tfidf-cosine" });
  });
});
