import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { coverageOf } from "../src/coverage.js";
import { buildEvidence } from "../src/evidence-json.js";
import { renderMarkdown } from "../src/evidence-markdown.js";
import { changedFields, fillAbsent, type PaperRecord, recordFrom } from "../src/records.js";
import { type Ranked, selectPackets } from "../src/select-packets.js";
import { citeMismatches, matchExportRows, verdictFor } from "../src/verify.js";

function rec(id: number, over: Partial<PaperRecord> = {}): PaperRecord {
  return {
    id,
    title: "Diffusion models for turbulent flow reconstruction",
    authors: "Ada Lovelace, Alan Turing",
    publication_date: "2024-01-15",
    doi: "10.48550/arXiv.2401.00001",
    url: null,
    source_repository: "arxiv",
    external_id: "2401.00001",
    abstract: null,
    ...over,
  };
}

const checked = { finished: true as const, check_status: "ok", events: [] };

describe("cite against resmon's record", () => {
  it("normalises the DOI, takes a close title, year ±1 and the first author's surname", () => {
    expect(
      citeMismatches(
        {
          doi: "https://doi.org/10.48550/ARXIV.2401.00001",
          title: "Diffusion Models for Turbulent Flow Reconstruction.",
          year: 2023,
          first_author: "Lovelace, A.",
        },
        rec(1),
      ),
    ).toEqual([]);
    expect(
      citeMismatches(
        { doi: "10.1/other", year: 2021, first_author: "Turing", title: "Something else" },
        rec(1),
      ),
    ).toEqual([
      { field: "doi", cited: "10.1/other", resmon: "10.48550/arXiv.2401.00001" },
      { field: "title", cited: "Something else", resmon: rec(1).title },
      { field: "year", cited: 2021, resmon: "2024-01-15" },
      { field: "author", cited: "Turing", resmon: "Ada Lovelace, Alan Turing" },
    ]);
  });

  it("gives a verdict that says its basis and never repairs", () => {
    const v = verdictFor(1, { doi: "10.1/other" }, rec(1), rec(1), checked);
    expect(v).toMatchObject({
      basis: "resmon_record",
      verified: false,
      no_record: false,
      lifecycle_unchecked: false,
    });
    expect(v.record?.doi).toBe("10.48550/arXiv.2401.00001");
    expect(verdictFor(1, undefined, rec(1), null, checked)).toMatchObject({
      no_record: true,
      verified: false,
    });
    expect(verdictFor(1, undefined, rec(1), rec(1, { title: "Changed" }), checked).record_changed).toEqual([
      "title",
    ]);
  });

  it("a field the row at retrieval did not carry is not a change; a fuller row fills it", () => {
    const similarRow = recordFrom({
      id: 3,
      title: "T",
      authors: "A B",
      publication_date: "2024-01-01",
      doi: null,
      url: null,
      source_repository: "arxiv",
    });
    expect(similarRow?.absent).toEqual(["external_id", "abstract"]);
    const exported = rec(3, {
      title: "T",
      authors: "A B",
      publication_date: "2024-01-01",
      doi: null,
      url: null,
      external_id: "2401.1",
    });
    expect(changedFields(similarRow as PaperRecord, exported)).toEqual([]);
    const filled = fillAbsent(similarRow as PaperRecord, exported);
    expect(filled.external_id).toBe("2401.1");
    expect(filled.absent).toBeUndefined();
    expect(changedFields(filled, { ...exported, external_id: "other" })).toEqual(["external_id"]);
  });

  it("a lifecycle check that did not finish, or that resmon never made, is unchecked — never 'not retracted'", () => {
    expect(verdictFor(1, undefined, rec(1), rec(1), { finished: false, error: "timeout" })).toMatchObject({
      lifecycle_unchecked: true,
      retraction: null,
      lifecycle_check_status: "not finished: timeout",
    });
    expect(
      verdictFor(1, undefined, rec(1), rec(1), { finished: true, check_status: null, events: [] })
        .lifecycle_unchecked,
    ).toBe(true);
    const retracted = verdictFor(1, undefined, rec(1), rec(1), {
      finished: true,
      check_status: "ok",
      events: [
        {
          kind: "retraction",
          label: "Retracted",
          notice_url: "https://n/1",
          notice_doi: "10.1/r",
          notice_date: "2023-01-09",
        },
      ],
    });
    expect(retracted.retraction).toEqual({
      label: "Retracted",
      notice_url: "https://n/1",
      notice_doi: "10.1/r",
      notice_date: "2023-01-09",
    });
  });

  it("matches export rows (which carry no id) back by source and external id, then DOI", () => {
    const rows = [rec(-1, { external_id: "B", doi: "10.1/b" }), rec(-1, { external_id: "A", doi: "10.1/a" })];
    const m = matchExportRows(rows, [
      { doc_id: 10, record: rec(10, { external_id: "A" }) },
      { doc_id: 11, record: rec(11, { external_id: "Z", doi: "10.1/b" }) },
      { doc_id: 12, record: undefined },
    ]);
    expect(m.get(10)?.external_id).toBe("A");
    expect(m.get(10)?.id).toBe(10);
    expect(m.get(11)?.external_id).toBe("B");
    expect(m.has(12)).toBe(false);
  });
});

function ranked(
  doc_id: number,
  rank: number,
  over: {
    role?: "review" | "contradicting" | "foundational";
    author?: string;
    outside?: boolean;
    retracted?: boolean;
  } = {},
): Ranked {
  const record = rec(doc_id, { authors: over.author ?? `Author${doc_id} Person`, title: `Paper ${doc_id}` });
  const verdict = verdictFor(doc_id, undefined, record, record, {
    finished: true,
    check_status: "ok",
    events: over.retracted
      ? [{ kind: "retraction", label: "Retracted", notice_url: `https://n/${doc_id}` }]
      : [],
  });
  return {
    entry: { doc_id, rank, ...(over.role ? { role: over.role } : {}) },
    candidate: {
      doc_id,
      merged_ids: [],
      query_ids: ["Q1"],
      origin: "retrieval",
      out_of_window: over.outside ?? false,
      batch: 0,
    },
    verdict,
    record,
    score: { doc_id, score: 3, criteria_hit: ["C1"] },
  };
}

describe("emit", () => {
  it("drops retractions, caps a first author at 2, keeps a review and a contradicting paper, fills foundational slots, backfills", () => {
    const list = [
      ranked(1, 1, { author: "Ada Lovelace" }),
      ranked(2, 2, { author: "Ada Lovelace" }),
      ranked(3, 3, { author: "Ada Lovelace" }),
      ranked(4, 4, { retracted: true }),
      ranked(5, 5),
      ranked(6, 6),
      ranked(7, 20, { role: "review" }),
      ranked(8, 21, { role: "contradicting" }),
      ranked(9, 22, { outside: true }),
      ranked(10, 23, { outside: true }),
      ranked(11, 24, { outside: true }),
    ];
    const mix = selectPackets(list, 6, 1, "2024-01-01");
    // Numbered in result order, each with the slot that put it there.
    expect(mix.chosen.map((c) => [c.position, c.paper.entry.doc_id, c.slot])).toEqual([
      [1, 1, "core"],
      [2, 2, "core"],
      [3, 5, "backfill"],
      [4, 7, "review"],
      [5, 8, "contradicting"],
      [6, 9, "foundational"],
    ]);
    // Each alternate says why it was left out.
    expect(mix.alternates.map((a) => [a.paper.entry.doc_id, a.left_out])).toEqual([
      [3, "author_cap"],
      [6, "no_room"],
      [10, "outside_window"],
      [11, "outside_window"],
    ]);
    expect(mix.words).toBe(
      "6 of 6 places: 1 review, 1 contradicting, 1 foundational (outside the window from 2024-01-01), 2 by rank, 1 backfill; 4 ranked papers left out (1 for the author cap, 2 outside the window, 1 for want of room).",
    );
  });

  it("the issue's recent-work result (ranks 1, 2, 25, 26, 27): numbered by place, each slot and each alternate's reason said", () => {
    const list = [
      ...Array.from({ length: 24 }, (_, i) => ranked(i + 1, i + 1)),
      ranked(25, 25, { role: "review" }),
      ranked(26, 26, { outside: true }),
      ranked(27, 27, { outside: true }),
    ];
    const e = buildEvidence({
      scan_id: "s",
      generated_at: "now",
      brief: "recent work",
      profile: "quick",
      window: { since: "2024-01-01", until: null },
      criteria: [{ id: "C1", text: "one" }],
      ranked: list,
      top: 5,
      foundational: 2,
      coverage: coverageOf(["C1"], [], [], [], ["pubmed"]),
      counts: {},
    });
    expect(e.packets.map((p) => [p.position, p.rank, p.slot])).toEqual([
      [1, 1, "core"],
      [2, 2, "core"],
      [3, 25, "review"],
      [4, 26, "foundational"],
      [5, 27, "foundational"],
    ]);
    expect(e.alternates.map((a) => [a.rank, a.left_out])).toEqual([3, 4, 5, 6, 7].map((r) => [r, "no_room"]));
    const md = renderMarkdown(e, "recent work");
    // Headings are places in the result, not the model's rank over the shortlist.
    expect(md.match(/^### \d+\./gm)).toEqual(["### 1.", "### 2.", "### 3.", "### 4.", "### 5."]);
    expect(md).toContain("### 3. Paper 25\n\n- In the result: the review slot (the model's rank 25)");
    expect(md).toContain("### 4. Paper 26\n\n- In the result: a foundational slot (the model's rank 26)");
    expect(md).toContain(
      "5 of 5 places: 1 review, 2 foundational (outside the window from 2024-01-01), 2 by rank; 22 ranked papers left out (22 for want of room).",
    );
    expect(md).toContain(
      "- Paper 3 (the model's rank 3, resmon id 3): no room: every place went to a paper ranked above it or to a reserved slot",
    );
  });

  it("writes the evidence and its Markdown with the basis, marks, coverage and removed retractions", () => {
    const list = [ranked(1, 1), ranked(2, 2, { retracted: true })];
    list[0] = {
      ...list[0],
      verdict: {
        ...(list[0] as Ranked).verdict,
        verified: false,
        mismatches: [{ field: "doi", cited: "10.1/x", resmon: "10.1/y" }],
      },
    } as Ranked;
    const sweep = (query_id: string, category: string, label: string) => ({
      key: `0:${query_id}:sweep`,
      round: 0,
      query_id,
      text: query_id,
      via: "sweep" as const,
      status: "done" as const,
      attempts: 1,
      request_id: null,
      submitted_at: null,
      execution_id: 1,
      runtime_id: null,
      coverage: {
        reported: true,
        summary: `resmon's summary for ${query_id}`,
        sources: [{ source: "pubmed", category, label, zero_reason: null, note: "resmon's note." }],
        sources_that_could_not_answer: [],
      },
    });
    const coverage = {
      ...coverageOf(
        ["C1", "C2"],
        [],
        [],
        [sweep("Q1", "answered", "answered"), sweep("Q3", "unknown", "zero, reason not recorded")],
        ["pubmed"],
      ),
      hits_per_criterion: { C1: 2, C2: 9 },
      thin_criteria: ["C1"],
    };
    const e = buildEvidence({
      scan_id: "s",
      generated_at: "now",
      brief: "b",
      profile: "quick",
      window: { since: null, until: null },
      criteria: [
        { id: "C1", text: "one" },
        { id: "C2", text: "two" },
      ],
      ranked: list,
      top: 10,
      foundational: 0,
      coverage,
      counts: {},
    });
    expect(e.packets.map((p) => p.doc_id)).toEqual([1]);
    expect(e.packets[0]?.why_it_matters).toBeNull();
    expect(e.retracted).toEqual([expect.objectContaining({ doc_id: 2, notice_url: "https://n/2" })]);
    expect(e.unverified).toEqual([expect.objectContaining({ doc_id: 1, in_packets: true })]);
    const md = renderMarkdown(e, "b");
    expect(md).toContain("Basis: `resmon_record`");
    expect(md).toContain("### 1. Paper 1 [UNVERIFIED — check manually]");
    expect(md).toContain("Mismatch doi: cited 10.1/x; resmon has 10.1/y");
    expect(md).toContain("C1 (one): 2 papers — thin");
    expect(md).toContain("- pubmed: unknown in 1 of 2 sweeps (answered in 1); queries Q3");
    expect(md).toContain(`  - resmon's label: "zero, reason not recorded"`);
    expect(md).toContain(`- Q3 (round 0, execution 1, done): "resmon's summary for Q3"`);
    expect(md).not.toContain("Every source answered every sweep");
    expect(md).toContain("Paper 2 (resmon id 2): Retracted, https://n/2");
  });

  it("selection holds its rules on any ranking (property)", () => {
    const roles = [undefined, "review", "contradicting", "foundational"] as const;
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            author: fc.integer({ min: 0, max: 4 }),
            role: fc.integer({ min: 0, max: 3 }),
            outside: fc.boolean(),
            retracted: fc.boolean(),
          }),
          { maxLength: 40 },
        ),
        fc.integer({ min: 1, max: 25 }),
        fc.integer({ min: 0, max: 5 }),
        (shapes, top, f) => {
          const foundational = Math.min(f, top);
          const list = shapes.map((x, i) => {
            const role = roles[x.role];
            return ranked(i + 1, i + 1, {
              author: `Person${x.author} Name`,
              outside: x.outside,
              retracted: x.retracted,
              ...(role ? { role } : {}),
            });
          });
          const mix = selectPackets(list, top, foundational);
          const chosen = mix.chosen.map((c) => c.paper);
          const alternates = mix.alternates.map((a) => a.paper);
          expect(mix.chosen.map((c) => c.position)).toEqual(chosen.map((_, i) => i + 1));
          expect(chosen.length).toBeLessThanOrEqual(top);
          expect(alternates.length).toBeLessThanOrEqual(5);
          expect(chosen.some((r) => r.verdict.retraction)).toBe(false);
          expect(alternates.some((r) => chosen.includes(r))).toBe(false);
          const perAuthor = new Map<string, number>();
          for (const r of chosen)
            perAuthor.set(String(r.record?.authors), (perAuthor.get(String(r.record?.authors)) ?? 0) + 1);
          for (const n of perAuthor.values()) expect(n).toBeLessThanOrEqual(2);
          expect(chosen.filter((r) => r.candidate.out_of_window).length).toBeLessThanOrEqual(foundational);
          const ranks = chosen.map((r) => r.entry.rank);
          expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
        },
      ),
    );
  });
});
