import { describe, expect, it } from "vitest";
import { TOOL_BY_NAME, toolsListEntries } from "../src/index.js";
import { QUERY_KINDS } from "../src/scan-parts.js";

const SCAN_TOOL_NAMES = ["scan_start", "scan_continue", "scan_verify", "scan_result"] as const;

const SCAN_ID = "0b7e5c1e-3f3a-4c55-9a51-2f1d7c0e9a10";
const criteria = [
  { id: "C1", text: "measures the effect" },
  { id: "C2", text: "in humans" },
  { id: "C3", text: "after 2015" },
];
const queries = ["direct", "terminology", "contradictory", "review", "mechanism", "method"].map(
  (kind, i) => ({
    id: `q${i + 1}`,
    kind,
    text: `protein folding ${kind}`,
  }),
);
const start = { scan_id: SCAN_ID, brief: "# Question", queries: { criteria, queries }, sources: ["arxiv"] };

const issuesOf = (result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
  result.success ? [] : (result.error?.issues ?? []).map((i) => i.path.map(String).join("."));

describe("the scan rows (contract 1.1)", () => {
  it("three writes asking confirmation and one read, with the flags the design gives", () => {
    for (const name of ["scan_start", "scan_continue", "scan_verify"] as const) {
      const t = TOOL_BY_NAME[name];
      expect([t.kind, t.requiresConfirmation, t.annotations.idempotentHint], name).toEqual([
        "write",
        true,
        true,
      ]);
    }
    expect(TOOL_BY_NAME.scan_start.annotations.openWorldHint).toBe(true);
    expect(TOOL_BY_NAME.scan_verify.annotations.openWorldHint).toBe(false);
    expect(TOOL_BY_NAME.scan_result.kind).toBe("read");
    expect(TOOL_BY_NAME.scan_result.requiresConfirmation).toBe(false);
  });

  it("a read-only session lists scan_result and none of the three scan writes", () => {
    const names = toolsListEntries({ readOnly: true }).map((e) => e.name);
    expect(SCAN_TOOL_NAMES.filter((n) => names.includes(n))).toEqual(["scan_result"]);
  });

  it("scan_start takes a whole plan and applies no defaults (the engine stores what was given)", () => {
    expect(TOOL_BY_NAME.scan_start.input.parse(start)).toEqual(start);
    const full = {
      ...start,
      retrieval: "both",
      profile: "deep",
      top: 25,
      foundational: 25,
      since: "2015-01",
      until: "2026-12",
      max_candidates: 300,
      per_query: 30,
      force_gap_round: true,
    };
    expect(TOOL_BY_NAME.scan_start.input.parse(full)).toEqual(full);
  });

  it("refuses a non-canonical scan_id on every scan tool", () => {
    for (const name of SCAN_TOOL_NAMES) {
      const input = TOOL_BY_NAME[name].input;
      for (const bad of [
        SCAN_ID.toUpperCase(),
        "0b7e5c1e-3f3a-1c55-9a51-2f1d7c0e9a10",
        `{${SCAN_ID}}`,
        SCAN_ID.replaceAll("-", ""),
        "",
      ]) {
        const args = name === "scan_start" ? { ...start, scan_id: bad } : { scan_id: bad };
        expect(issuesOf(input.safeParse(args)), `${name} ${bad}`).toContain("scan_id");
      }
    }
  });

  it("refuses a plan outside the design's shape, naming where", () => {
    const input = TOOL_BY_NAME.scan_start.input;
    const plan = (q: unknown, c: unknown = criteria) => ({ ...start, queries: { criteria: c, queries: q } });
    expect(issuesOf(input.safeParse(plan(queries.slice(0, 5))))).toContain("queries.queries");
    expect(issuesOf(input.safeParse(plan([...queries, ...queries.slice(0, 3)])))).toContain(
      "queries.queries",
    );
    expect(issuesOf(input.safeParse(plan(queries, criteria.slice(0, 2))))).toContain("queries.criteria");
    const noReview = queries.map((q) => (q.kind === "review" ? { ...q, kind: "adjacent" } : q));
    const refused = input.safeParse(plan(noReview));
    expect(issuesOf(refused)).toContain("queries.queries");
    expect(JSON.stringify(refused.error?.issues)).toContain("review");
    expect(issuesOf(input.safeParse(plan(queries, [...criteria, { id: "C7", text: "x" }])))).toContain(
      "queries.criteria.3.id",
    );
    expect(
      issuesOf(input.safeParse(plan([{ ...queries[0], kind: "opinion" }, ...queries.slice(1)]))),
    ).toContain("queries.queries.0.kind");
    expect(QUERY_KINDS).toHaveLength(7);
  });

  it("refuses top and foundational out of range, foundational above top, and a window back to front", () => {
    const input = TOOL_BY_NAME.scan_start.input;
    expect(issuesOf(input.safeParse({ ...start, top: 26 }))).toContain("top");
    expect(issuesOf(input.safeParse({ ...start, top: 0 }))).toContain("top");
    expect(issuesOf(input.safeParse({ ...start, top: 3, foundational: 4 }))).toContain("foundational");
    expect(issuesOf(input.safeParse({ ...start, foundational: 11 }))).toContain("foundational");
    expect(input.safeParse({ ...start, foundational: 10 }).success).toBe(true);
    expect(issuesOf(input.safeParse({ ...start, since: "2020-13" }))).toContain("since");
    expect(issuesOf(input.safeParse({ ...start, since: "2020-01-01" }))).toContain("since");
    expect(issuesOf(input.safeParse({ ...start, since: "2021-01", until: "2020-12" }))).toContain("since");
    expect(issuesOf(input.safeParse({ ...start, retrieval: "web" }))).toContain("retrieval");
  });

  it("scan_continue takes each artifact's shape and refuses what does not fit it", () => {
    const input = TOOL_BY_NAME.scan_continue.input;
    const score = { doc_id: 7, score: 2, criteria_hit: ["C1"] };
    expect(input.safeParse({ scan_id: SCAN_ID }).success).toBe(true);
    expect(input.safeParse({ scan_id: SCAN_ID, screen_scores: [score] }).success).toBe(true);
    expect(input.safeParse({ scan_id: SCAN_ID, gap_queries: [] }).success).toBe(true);
    expect(
      issuesOf(input.safeParse({ scan_id: SCAN_ID, screen_scores: [{ ...score, score: 4 }] })),
    ).toContain("screen_scores.0.score");
    expect(
      issuesOf(input.safeParse({ scan_id: SCAN_ID, screen_scores: [{ ...score, doc_id: 0 }] })),
    ).toContain("screen_scores.0.doc_id");
    expect(
      issuesOf(input.safeParse({ scan_id: SCAN_ID, screen_scores: [{ ...score, criteria_hit: ["X"] }] })),
    ).toContain("screen_scores.0.criteria_hit.0");
    expect(issuesOf(input.safeParse({ scan_id: SCAN_ID, screen_scores: [] }))).toContain("screen_scores");
    const gap = { text: "more", criterion: "C2" };
    expect(issuesOf(input.safeParse({ scan_id: SCAN_ID, gap_queries: Array(9).fill(gap) }))).toContain(
      "gap_queries",
    );
    const ranked = { doc_id: 7, rank: 1, role: "core", cite: { doi: "10.1/x", year: 2020 } };
    expect(input.safeParse({ scan_id: SCAN_ID, ranked_entries: [ranked] }).success).toBe(true);
    expect(
      issuesOf(
        input.safeParse({ scan_id: SCAN_ID, ranked_entries: [{ ...ranked, cite: { journal: "J" } }] }),
      ),
    ).toContain("ranked_entries.0.cite");
    expect(
      issuesOf(input.safeParse({ scan_id: SCAN_ID, ranked_entries: [{ ...ranked, role: "key" }] })),
    ).toContain("ranked_entries.0.role");
  });

  it("every scan tool answers the envelope: phase, status ok, next_action, progress, payload", () => {
    const envelope = {
      scan_id: SCAN_ID,
      phase: "screen",
      status: "ok",
      next_action: "screen_candidates",
      progress: { screened: 0 },
      payload: { batch: [] },
    };
    for (const name of SCAN_TOOL_NAMES) {
      const output = TOOL_BY_NAME[name].output;
      expect(output.safeParse(envelope).success, name).toBe(true);
      expect(output.safeParse({ ...envelope, replayed: true }).success, name).toBe(true);
      expect(output.safeParse({ ...envelope, replayed: false }).success, name).toBe(false);
      expect(output.safeParse({ ...envelope, next_action: "guess" }).success, name).toBe(false);
      expect(output.safeParse({ ...envelope, status: "error" }).success, name).toBe(false);
    }
  });
});
