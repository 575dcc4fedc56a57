import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { excludedBy, groupSamePapers, outsideWindow, pool, samePaper } from "../src/pool.js";
import type { PaperRecord } from "../src/records.js";
import type { RecordBook } from "../src/state.js";

function rec(id: number, over: Partial<PaperRecord> = {}): PaperRecord {
  return {
    id,
    title: `Paper number ${id} on a distinct subject ${id * 7}`,
    authors: `Author${id} Surname${id}`,
    publication_date: "2022-05-01",
    doi: `10.1000/p.${id}`,
    url: null,
    source_repository: "openalex",
    external_id: `W${id}`,
    abstract: null,
    ...over,
  };
}

function book(records: PaperRecord[]): RecordBook {
  return Object.fromEntries(records.map((r) => [String(r.id), r]));
}

const base = {
  window: { since: null, until: null },
  existing: [],
  origin: "retrieval" as const,
  firstBatch: 0,
  batchSize: 25,
};

describe("same paper", () => {
  it("by DOI (normalised), then arXiv id, then close title with year or first author", () => {
    expect(samePaper(rec(1, { doi: "10.1/ABC" }), rec(2, { doi: "https://doi.org/10.1/abc" }))).toBe(true);
    expect(samePaper(rec(1, { doi: "10.1/a" }), rec(2, { doi: "10.1/b", title: rec(1).title }))).toBe(false);
    const arxiv = rec(1, { doi: null, source_repository: "arxiv", external_id: "2401.00001v2" });
    expect(samePaper(arxiv, rec(2, { doi: "10.48550/arXiv.2401.00001" }))).toBe(true);
    const t = "Diffusion models for turbulent flow reconstruction";
    const a = rec(1, { doi: null, title: t, authors: "Ada Lovelace, Alan Turing" });
    expect(samePaper(a, rec(2, { doi: null, title: `${t}.`, publication_date: "2022-01-01" }))).toBe(true);
    expect(
      samePaper(
        a,
        rec(2, {
          doi: null,
          title: t.toUpperCase(),
          publication_date: "2019-01-01",
          authors: "Grace Hopper",
        }),
      ),
    ).toBe(false);
    expect(
      samePaper(a, rec(2, { doi: null, title: t, publication_date: "2019-01-01", authors: "Ada Lovelace" })),
    ).toBe(true);
    expect(
      samePaper(
        a,
        rec(2, { doi: null, title: "Diffusion models for laminar flow", publication_date: "2022-01-01" }),
      ),
    ).toBe(false);
  });

  it("groups transitively and keys each group by its lowest id", () => {
    const records = [rec(5, { doi: "10.1/x" }), rec(3, { doi: "10.1/x" }), rec(9)];
    const groups = groupSamePapers([5, 3, 9], book(records));
    expect(groups.get(5)).toBe(3);
    expect(groups.get(3)).toBe(3);
    expect(groups.get(9)).toBe(9);
  });
});

describe("pool", () => {
  it("applies must_not and the window per query, dedupes, and keeps merged ids", () => {
    const records = book([
      rec(1),
      rec(2, { doi: rec(1).doi }),
      rec(3, { title: "A survey of passing methods", doi: "10.1/s" }),
      rec(4, { publication_date: "2010-01-01" }),
      rec(5, { publication_date: null }),
    ]);
    const out = pool({
      ...base,
      window: { since: "2020-01", until: null },
      queries: [{ id: "Q1", must_not: ["PASSING"], doc_ids: [1, 2, 3, 4, 5] }],
      records,
      perQuery: 10,
      cap: 10,
    });
    expect(out.added.map((c) => [c.doc_id, c.merged_ids])).toEqual([
      [1, [2]],
      [5, []],
    ]);
    expect(out.dropped).toMatchObject({ must_not: 1, window: 1 });
  });

  it("takes candidates round-robin over the queries, at most per_query each, until the cap", () => {
    const records = book(Array.from({ length: 30 }, (_, i) => rec(i + 1)));
    const out = pool({
      ...base,
      queries: [
        { id: "Q1", must_not: [], doc_ids: [1, 2, 3, 4, 5, 6] },
        { id: "Q2", must_not: [], doc_ids: [1, 11, 12, 13] },
        { id: "Q3", must_not: [], doc_ids: [21] },
      ],
      records,
      perQuery: 2,
      cap: 5,
    });
    expect(out.added.map((c) => c.doc_id)).toEqual([1, 11, 21, 2, 12]);
    expect(out.added[0]?.query_ids.sort()).toEqual(["Q1", "Q2"]);
    expect(out.found).toEqual({ Q1: 6, Q2: 4, Q3: 1 });
  });

  it("a paper already in the pool is not added again; it gains the new query", () => {
    const records = book([rec(1), rec(2, { doi: rec(1).doi })]);
    const existing = [
      {
        doc_id: 1,
        merged_ids: [],
        query_ids: ["Q1"],
        origin: "retrieval" as const,
        out_of_window: false,
        batch: 0,
      },
    ];
    const out = pool({
      ...base,
      existing,
      queries: [{ id: "G1", must_not: [], doc_ids: [2] }],
      records,
      perQuery: 5,
      cap: 5,
    });
    expect(out.added).toEqual([]);
    expect(out.updated).toEqual([{ ...existing[0], merged_ids: [2], query_ids: ["Q1", "G1"] }]);
  });

  it("with a priority, takes papers best first (a work by its best copy), none at 0 or below, credited to the first list", () => {
    // 1 and 11 are one work (same DOI); 4 is on no list's favour; 5 is scored below 0.
    const records = book([rec(1), rec(11, { doi: rec(1).doi }), rec(2), rec(3), rec(4), rec(5)]);
    const priority = new Map([
      [1, 0.1],
      [11, 0.5],
      [2, 0.3],
      [3, 0.2],
      [5, -0.1],
    ]);
    const out = pool({
      ...base,
      queries: [
        { id: "Q1", must_not: [], doc_ids: [4, 3, 1] },
        { id: "similar:9", must_not: [], doc_ids: [2, 11, 5] },
      ],
      records,
      perQuery: 1,
      cap: 10,
      priority,
    });
    expect(out.added.map((c) => c.doc_id)).toEqual([1, 2, 3]);
    expect(out.added[0]?.merged_ids).toEqual([11]);
    expect(out.added[0]?.query_ids.sort()).toEqual(["Q1", "similar:9"]);
    expect(out.credited).toEqual({ Q1: [1, 3], "similar:9": [2] });
    // The cap holds, best first (here work 1 has only its 0.1 copy).
    expect(
      pool({
        ...base,
        queries: [{ id: "Q1", must_not: [], doc_ids: [4, 3, 1, 2] }],
        records,
        perQuery: 9,
        cap: 2,
        priority,
      }).added.map((c) => c.doc_id),
    ).toEqual([2, 3]);
  });

  it("holds its invariants on any input (property)", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ doi: fc.integer({ min: 0, max: 15 }), date: fc.integer({ min: 2015, max: 2025 }) }),
          { minLength: 1, maxLength: 40 },
        ),
        fc.array(fc.array(fc.integer({ min: 0, max: 39 }), { maxLength: 30 }), {
          minLength: 1,
          maxLength: 8,
        }),
        fc.integer({ min: 1, max: 10 }),
        fc.integer({ min: 0, max: 50 }),
        (shapes, lists, perQuery, cap) => {
          const records = book(
            shapes.map((s, i) => rec(i, { doi: `10.1/${s.doi}`, publication_date: `${s.date}-06-01` })),
          );
          const queries = lists.map((ids, i) => ({
            id: `Q${i}`,
            must_not: [],
            doc_ids: ids.filter((id) => id < shapes.length),
          }));
          const out = pool({
            ...base,
            window: { since: "2017-01", until: "2023-12" },
            queries,
            records,
            perQuery,
            cap,
          });
          expect(out.added.length).toBeLessThanOrEqual(cap);
          const dois = out.added.map((c) => records[c.doc_id]?.doi);
          expect(new Set(dois).size).toBe(dois.length);
          for (const c of out.added) {
            expect(
              outsideWindow(records[c.doc_id] as PaperRecord, { since: "2017-01", until: "2023-12" }),
            ).toBe(false);
            expect(c.doc_id).toBe(Math.min(c.doc_id, ...c.merged_ids));
            expect(
              queries.some(
                (q) => q.doc_ids.includes(c.doc_id) || c.merged_ids.some((m) => q.doc_ids.includes(m)),
              ),
            ).toBe(true);
          }
          // No query took more than per_query: each added candidate is charged to one query of its own.
          expect(out.added.length).toBeLessThanOrEqual(perQuery * queries.length);
        },
      ),
    );
  });
});

describe("must_not and the window", () => {
  it("matches must_not terms without case or accents, in title or abstract", () => {
    expect(excludedBy(rec(1, { abstract: "We use Réseau methods" }), ["reseau"])).toBe(true);
    expect(excludedBy(rec(1), ["absent"])).toBe(false);
  });
  it("an undated paper is not provably outside the window", () => {
    expect(outsideWindow({ publication_date: null }, { since: "2020-01", until: "2021-01" })).toBe(false);
    expect(outsideWindow({ publication_date: "2021-02-01" }, { since: "2020-01", until: "2021-01" })).toBe(
      true,
    );
    expect(outsideWindow({ publication_date: "2021-01-31" }, { since: "2020-01", until: "2021-01" })).toBe(
      false,
    );
  });
});
