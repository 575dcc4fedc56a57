import { ToolError } from "@resmon/mcp-contract";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { artifactHash, checkRankedPage, checkScreenScores, fitIds } from "../src/artifacts.js";
import { coverageOf, gapDecision } from "../src/coverage.js";
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

  it("counts hits per criterion among papers scored ≥ 1, thin below 5, and names silent sources verbatim", () => {
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

  it("names every criterion the rule caught, not only the weakest (as thin_criteria lists them)", () => {
    const thin = { hits_per_criterion: { C1: 0, C2: 0, C3: 1, C4: 2 }, pool_per_query: { Q1: 40 } };
    expect(gapDecision("when_thin", false, thin, ["Q1"]).reasons).toEqual([
      "Criteria C1 (0), C2 (0), C3 (1), C4 (2) have under 8 papers each.",
    ]);
    const one = { hits_per_criterion: { C1: 30, C2: 28, C3: 7 }, pool_per_query: { Q1: 40 } };
    expect(gapDecision("when_thin", false, one, ["Q1"]).reasons).toEqual([
      "Criterion C3 (7) has under 8 papers.",
    ]);
    const half = { hits_per_criterion: { C1: 60, C2: 50, C3: 12, C4: 10 }, pool_per_query: { Q1: 40 } };
    expect(gapDecision("when_thin", false, half, ["Q1"]).reasons).toEqual([
      "Criteria C3 (12), C4 (10) have under half the median (31) papers.",
    ]);
  });
});

describe("shortlist", () => {
  it("takes score ≥ 2, best first, at most 40 in the window and 12 outside, in pages of 10", () => {
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
    const s = buildShortlist(candidates, scores);
    expect(s.in_window.length).toBeLessThanOrEqual(40);
    expect(s.outside.length).toBeLessThanOrEqual(12);
    for (const id of [...s.in_window, ...s.outside]) expect(scores.get(id)?.score).toBeGreaterThanOrEqual(2);
    expect(scores.get(s.in_window[0] as number)?.score).toBe(3);
    expect(s.in_window[0]).toBe(15); // score 3 with two criteria, lowest id
    expect(s.in_window.length).toBe(25); // 50 in window, half score ≥ 2
    expect(s.outside.length).toBe(10);
    const pages = shortlistPages(s);
    expect(pages.map((p) => p.length)).toEqual([10, 10, 10, 5]);
  });
});
