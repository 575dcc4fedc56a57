import { ToolError } from "@resmon/mcp-contract";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { artifactHash, checkRankedPage, checkScreenScores, fitIds } from "../src/artifacts.js";
import { coverageOf, coverageProgress, gapDecision } from "../src/coverage.js";
import { buildShortlist, shortlistPages } from "../src/shortlist.js";
import type { Batch, Candidate, RetrievalTask } from "../src/state.js";

function cand(doc_id: number, over: Partial<Candidate> = {}): Candidate {
  return {
    doc_id,
    merged_ids: [],
    query_ids: ["Q1"],
    origin: "retrieval",
    out_of_window: false,
    batch: 0,
    ...over,
  };
}

function batchOf(scores: [number, 0 | 1 | 2 | 3, string[]][]): Batch {
  return {
    index: 0,
    round: 0,
    doc_ids: scores.map((s) => s[0]),
    accepted_hash: "h",
    scores: scores.map(([doc_id, score, criteria_hit]) => ({ doc_id, score, criteria_hit })),
  };
}

describe("artifact fit", () => {
  it("finds exactly the missing, unknown and repeated ids (property)", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 60 }), { maxLength: 25 }),
        fc.array(fc.integer({ min: 1, max: 80 }), { maxLength: 40 }),
        (expected, sent) => {
          const fit = fitIds(expected, sent);
          for (const id of fit.missing_ids) expect(sent).not.toContain(id);
          for (const id of expected) if (!sent.includes(id)) expect(fit.missing_ids).toContain(id);
          for (const id of fit.unknown_ids) expect(expected).not.toContain(id);
          for (const id of fit.duplicate_ids) expect(sent.filter((x) => x === id).length).toBeGreaterThan(1);
          const clean = fit.missing_ids.length + fit.unknown_ids.length + fit.duplicate_ids.length === 0;
          expect(clean).toBe([...sent].sort().join() === [...expected].sort().join());
        },
      ),
    );
  });

  it("a screening batch must name only the plan's criteria and scores 0–3", () => {
    const ok = [{ doc_id: 1, score: 2 as const, criteria_hit: ["C1"] }];
    expect(() => checkScreenScores([1], ok, ["C1", "C2", "C3"])).not.toThrow();
    try {
      checkScreenScores([1], [{ doc_id: 1, score: 2, criteria_hit: ["C7"] }], ["C1"]);
      throw new Error("accepted");
    } catch (e) {
      expect((e as ToolError).detail).toMatchObject({ reason: "bad_artifact", bad_criteria: ["C7"] });
    }
  });

  it("a ranked page needs every paper once with a positive integer rank", () => {
    expect(() =>
      checkRankedPage(
        [1, 2],
        [
          { doc_id: 1, rank: 1 },
          { doc_id: 2, rank: 2 },
        ],
      ),
    ).not.toThrow();
    expect(() => checkRankedPage([1, 2], [{ doc_id: 1, rank: 1 }])).toThrow(ToolError);
    expect(() => checkRankedPage([1], [{ doc_id: 1, rank: 0 }])).toThrow(ToolError);
  });

  it("hashes an artifact independent of its order", () => {
    const a = [
      { doc_id: 2, rank: 1 },
      { doc_id: 1, rank: 2 },
    ];
    expect(artifactHash(a)).toBe(artifactHash([...a].reverse()));
    expect(artifactHash(a)).not.toBe(
      artifactHash([
        { doc_id: 2, rank: 2 },
        { doc_id: 1, rank: 1 },
      ]),
    );
  });
});

describe("coverage and the gap round", () => {
  const task = (over: Partial<RetrievalTask>): RetrievalTask => ({
    key: "k",
    round: 0,
    query_id: "Q1",
    text: "t",
    via: "sweep",
    status: "done",
    attempts: 1,
    request_id: null,
    submitted_at: null,
    execution_id: 1,
    runtime_id: null,
    ...over,
  });

  it("counts hits per criterion among papers scored ≥ 1, thin below 8, and names silent sources verbatim", () => {
    const batches = [
      batchOf([
        [1, 3, ["C1", "C2"]],
        [2, 0, ["C1"]],
        [3, 1, ["C1"]],
      ]),
    ];
    const tasks = [
      task({
        coverage: {
          summary: "2 selected sources: 1 answered, 1 recorded non-answer (could not answer), 0 unknown.",
          sources: [
            { source: "arxiv", category: "answered", status: "ok", result_count: 3 },
            { source: "pubmed", category: "non_answer", status: "error", zero_reason: "http_error" },
          ],
          sources_that_could_not_answer: ["pubmed"],
        },
      }),
      task({ query_id: "Q2", via: "corpus", sort_served: "newest", similarity_unavailable: "no model" }),
    ];
    const cov = coverageOf(
      ["C1", "C2", "C3"],
      [cand(1), cand(2), cand(3, { query_ids: ["Q1", "Q2"] })],
      batches,
      tasks,
      ["arxiv", "pubmed"],
    );
    expect(cov.hits_per_criterion).toEqual({ C1: 2, C2: 1, C3: 0 });
    expect(cov.thin_criteria).toEqual(["C1", "C2", "C3"]);
    expect(cov.pool_per_query).toEqual({ Q1: 3, Q2: 1 });
    expect(cov.silent_sources).toEqual([
      { source: "pubmed", query_ids: ["Q1"], non_answer: 1, unknown: 0, not_reported: 0, labels: [] },
    ]);
    expect(cov.every_source_answered).toBe(false);
    expect(cov.sweeps[0]?.sources[1]).toMatchObject({ zero_reason: "http_error" });
    expect(cov.corpus).toEqual([
      {
        query_id: "Q2",
        round: 0,
        sort_asked: "similarity",
        sort_served: "newest",
        similarity_unavailable: "no model",
      },
    ]);
  });

  it("a failed sweep heard from no source: coverage_risk is never 0 when sweeps failed", () => {
    const failed = task({ status: "failed", coverage: null });
    const all = coverageProgress(
      [failed, task({ query_id: "Q2", status: "failed", coverage: null })],
      ["arxiv", "pubmed"],
    );
    expect(all.coverage_risk).toBe(2);
    expect(String(all.coverage_note)).toContain("2 sweeps failed");
    const answered = task({
      coverage: {
        summary: null,
        sources: [
          { source: "arxiv", category: "answered" },
          { source: "pubmed", category: "answered" },
        ],
        sources_that_could_not_answer: [],
      },
    });
    expect(coverageProgress([answered], ["arxiv", "pubmed"]).coverage_risk).toBe(0);
    expect(coverageProgress([answered, failed], ["arxiv", "pubmed"]).coverage_risk).toBe(2);
  });

  it("follows the profile's rule", () => {
    const rich = { hits_per_criterion: { C1: 30, C2: 28, C3: 20 }, pool_per_query: { Q1: 40, Q2: 25 } };
    expect(gapDecision("never", false, rich, ["Q1", "Q2"]).needed).toBe(false);
    expect(gapDecision("never", true, rich, ["Q1", "Q2"]).needed).toBe(true);
    expect(gapDecision("always", false, rich, ["Q1", "Q2"]).needed).toBe(true);
    expect(gapDecision("when_thin", false, rich, ["Q1", "Q2"])).toEqual({ needed: false, reasons: [] });
    expect(
      gapDecision("when_thin", false, { ...rich, hits_per_criterion: { C1: 30, C2: 28, C3: 7 } }, ["Q1"])
        .needed,
    ).toBe(true);
    // Under half the median (28 → 14) though above 8:
    expect(
      gapDecision("when_thin", false, { ...rich, hits_per_criterion: { C1: 30, C2: 28, C3: 12 } }, ["Q1"])
        .needed,
    ).toBe(true);
    expect(
      gapDecision("when_thin", false, { ...rich, pool_per_query: { Q1: 40, Q2: 19 } }, ["Q1", "Q2"]).reasons,
    ).toEqual(["Query Q2 contributed 19 candidates (under 20)."]);
  });

  it("one number for thin: a criterion the gap rule calls thin is in thin_criteria, and only then", () => {
    const hits = (n: number) => [...Array(n)].map((_, i) => [i + 1, 2, ["C1"]] as [number, 2, string[]]);
    for (const n of [4, 6, 7, 8, 9]) {
      const cov = coverageOf(
        ["C1"],
        hits(n).map(([id]) => cand(id)),
        [batchOf(hits(n))],
        [],
        [],
      );
      const gap = gapDecision("when_thin", false, { ...cov, pool_per_query: {} }, []);
      expect(cov.thin_criteria.includes("C1")).toBe(gap.needed);
      expect(gap.reasons.some((r) => r.includes("thin"))).toBe(gap.needed);
    }
  });

  it("names every criterion the rule caught, not only the weakest (as thin_criteria lists them)", () => {
    const thin = { hits_per_criterion: { C1: 0, C2: 0, C3: 1, C4: 2 }, pool_per_query: { Q1: 40 } };
    expect(gapDecision("when_thin", false, thin, ["Q1"]).reasons).toEqual([
      "Criteria C1 (0), C2 (0), C3 (1), C4 (2) are thin: under 8 papers each.",
    ]);
    const one = { hits_per_criterion: { C1: 30, C2: 28, C3: 7 }, pool_per_query: { Q1: 40 } };
    expect(gapDecision("when_thin", false, one, ["Q1"]).reasons).toEqual([
      "Criterion C3 (7) is thin: under 8 papers.",
    ]);
    const half = { hits_per_criterion: { C1: 60, C2: 50, C3: 12, C4: 10 }, pool_per_query: { Q1: 40 } };
    expect(gapDecision("when_thin", false, half, ["Q1"]).reasons).toEqual([
      "Criteria C3 (12), C4 (10) have under half the median (31) papers.",
    ]);
  });
});

describe("shortlist", () => {
  it("takes score ≥ 2, best first, at most 2 × top + 10 with a few outside the window, in pages of 10", () => {
    const candidates = Array.from({ length: 70 }, (_, i) => cand(i + 1, { out_of_window: i >= 50 }));
    const scores = new Map(
      candidates.map((c) => [
        c.doc_id,
        {
          doc_id: c.doc_id,
          score: (c.doc_id % 4) as 0 | 1 | 2 | 3,
          criteria_hit: c.doc_id % 5 === 0 ? ["C1", "C2"] : ["C1"],
        },
      ]),
    );
    const s = buildShortlist(candidates, scores, { top: 10, foundational: 2 });
    expect(s.limit).toBe(30);
    for (const id of [...s.in_window, ...s.outside]) expect(scores.get(id)?.score).toBeGreaterThanOrEqual(2);
    expect(s.in_window[0]).toBe(15); // score 3 with two criteria, lowest id
    expect(s.outside.length).toBe(6); // room for a few per foundational slot
    expect(s.in_window.length).toBe(24); // 25 in the window scored ≥ 2; the bound leaves one out
    // Every score-3 paper of the window is shortlisted; what the bound left out is said.
    const threes = candidates.filter((c) => !c.out_of_window && c.doc_id % 4 === 3).map((c) => c.doc_id);
    for (const id of threes) expect(s.in_window).toContain(id);
    expect(s.left_out.length).toBe(25 + 10 - 30);
    const pages = shortlistPages(s);
    expect(pages.map((p) => p.length)).toEqual([10, 10, 10]);
    // Without foundational slots nothing outside the window is ranked.
    expect(buildShortlist(candidates, scores, { top: 10, foundational: 0 }).outside).toEqual([]);
  });

  it("ranks at most 2 × top + 10, and every top-scored paper while they fit", () => {
    const candidates = Array.from({ length: 100 }, (_, i) => cand(i + 1));
    const scores = new Map(
      candidates.map((c) => [
        c.doc_id,
        {
          doc_id: c.doc_id,
          score: (c.doc_id <= 20 ? 3 : c.doc_id <= 80 ? 2 : 0) as 0 | 2 | 3,
          criteria_hit: ["C1"],
        },
      ]),
    );
    for (const [top, size] of [
      [5, 20],
      [10, 30],
    ] as const) {
      const s = buildShortlist(candidates, scores, { top, foundational: 0 });
      expect(s.in_window.length).toBe(size);
      for (let id = 1; id <= Math.min(20, size); id++) expect(s.in_window).toContain(id);
      expect(s.left_out.length).toBe(80 - size);
      // Left out best first: the top-scored ones the bound could not hold come before any score 2.
      const leftThrees = s.left_out.filter((id) => id <= 20).length;
      expect(s.left_out.slice(0, leftThrees).every((id) => id <= 20)).toBe(true);
    }
  });

  it("past the bound, a criterion found by fewer queries is not starved: each marked criterion keeps its share", () => {
    // 50 score-3 papers on C1 found by three queries each, 10 on C3 found by one.
    const candidates = [
      ...Array.from({ length: 50 }, (_, i) => cand(i + 1, { query_ids: ["Q1", "Q2", "Q3"] })),
      ...Array.from({ length: 10 }, (_, i) => cand(100 + i)),
    ];
    const scores = new Map(
      candidates.map((c) => [
        c.doc_id,
        { doc_id: c.doc_id, score: 3 as const, criteria_hit: [c.doc_id < 100 ? "C1" : "C3"] },
      ]),
    );
    const s = buildShortlist(candidates, scores, { top: 5, foundational: 0 });
    expect(s.in_window.length).toBe(20);
    const c3 = s.in_window.filter((id) => id >= 100).length;
    expect(c3).toBe(10);
    expect(s.left_out.length).toBe(40);
  });
});
