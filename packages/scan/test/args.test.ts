import { parseArguments, ToolError } from "@resmon/mcp-contract";
import { describe, expect, it } from "vitest";
import { differingArguments, normalizeStart, windowDates } from "../src/args.js";
import { GRAPH_PLAN, startArgs } from "./helpers/plan.js";

/** What the server does with a scan_start call's arguments: the row parses them, then the engine defaults them. */
function startInputs(args: unknown) {
  return normalizeStart(parseArguments("scan_start", args));
}

function fieldOf(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ToolError);
    expect((e as ToolError).code).toBe("invalid_argument");
    return (e as ToolError).detail.field;
  }
  throw new Error("no refusal");
}

describe("start arguments", () => {
  it("accepts only canonical lowercase UUIDv4 scan ids", () => {
    expect(startInputs(startArgs({ scan_id: "0b5f8a4e-3c8d-4f6a-9b1e-2d7c5a9e8f10" }))).toBeTruthy();
    for (const bad of [
      "",
      "0B5F8A4E-3C8D-4F6A-9B1E-2D7C5A9E8F10",
      "0b5f8a4e-3c8d-1f6a-9b1e-2d7c5a9e8f10",
      "{0b5f8a4e-3c8d-4f6a-9b1e-2d7c5a9e8f10}",
      42,
    ]) {
      expect(fieldOf(() => startInputs({ ...startArgs(), scan_id: bad }))).toBe("scan_id");
    }
  });

  it("fills every default, so omitting a default-valued argument is no change", () => {
    const omitted = startInputs(startArgs({ profile: undefined, per_query: undefined }));
    expect(omitted).toMatchObject({
      retrieval: "sweep",
      profile: "standard",
      top: 10,
      foundational: 2,
      since: null,
      until: null,
      max_candidates: 450,
      per_query: 40,
      force_gap_round: false,
    });
    const spelled = startInputs(
      startArgs({
        profile: "standard",
        retrieval: "sweep",
        top: 10,
        foundational: 2,
        max_candidates: 450,
        per_query: 40,
        force_gap_round: false,
      }),
    );
    expect(differingArguments(omitted, spelled)).toEqual([]);
    // Sources are a set.
    const reordered = startInputs(
      startArgs({ profile: undefined, per_query: undefined, sources: ["openalex", "arxiv", "arxiv"] }),
    );
    expect(differingArguments(omitted, reordered)).toEqual([]);
  });

  it("names the arguments that differ, never their values", () => {
    const a = startInputs(startArgs());
    const b = startInputs(
      startArgs({
        brief: "other",
        since: "2020-01",
        queries: { ...GRAPH_PLAN, criteria: GRAPH_PLAN.criteria.slice(0, 3) },
      }),
    );
    expect(differingArguments(a, b)).toEqual(["brief", "since"]);
    const c = startInputs(
      startArgs({
        queries: {
          ...GRAPH_PLAN,
          queries: GRAPH_PLAN.queries.map((q, i) => (i ? q : { ...q, text: "graphs" })),
        },
      }),
    );
    expect(differingArguments(a, c)).toEqual(["queries"]);
  });

  it("foundational defaults to at most top", () => {
    expect(startInputs(startArgs({ top: 1 })).foundational).toBe(1);
    expect(fieldOf(() => startInputs(startArgs({ top: 3, foundational: 4 })))).toBe("foundational");
  });

  it("refuses a plan that breaks the rules, naming the field", () => {
    const q = GRAPH_PLAN.queries;
    expect(
      fieldOf(() =>
        startInputs(startArgs({ queries: { ...GRAPH_PLAN, criteria: GRAPH_PLAN.criteria.slice(0, 2) } })),
      ),
    ).toBe("queries.criteria");
    expect(
      fieldOf(() => startInputs(startArgs({ queries: { ...GRAPH_PLAN, queries: q.slice(0, 5) } }))),
    ).toBe("queries.queries");
    const noReview = q.map((x) => (x.kind === "review" ? { ...x, kind: "method" as const } : x));
    expect(fieldOf(() => startInputs(startArgs({ queries: { ...GRAPH_PLAN, queries: noReview } })))).toBe(
      "queries.queries",
    );
    const dupId = q.map((x, i) => (i === 1 ? { ...x, id: "Q1" } : x));
    expect(fieldOf(() => startInputs(startArgs({ queries: { ...GRAPH_PLAN, queries: dupId } })))).toBe(
      "queries.queries[1].id",
    );
    const badCriterion = GRAPH_PLAN.criteria.map((c, i) => (i ? c : { ...c, id: "X1" }));
    expect(
      fieldOf(() => startInputs(startArgs({ queries: { ...GRAPH_PLAN, criteria: badCriterion } }))),
    ).toBe("queries.criteria.0.id");
    expect(fieldOf(() => startInputs(startArgs({ sources: [] })))).toBe("sources");
    expect(fieldOf(() => startInputs(startArgs({ since: "2020-13" })))).toBe("since");
    expect(fieldOf(() => startInputs(startArgs({ since: "2021-01", until: "2020-12" })))).toBe("since");
    expect(fieldOf(() => startInputs(startArgs({ top: 26 })))).toBe("top");
  });

  it("turns the window into resmon's date bounds", () => {
    expect(windowDates({ since: "2020-02", until: "2024-02" })).toEqual({
      date_from: "2020-02-01",
      date_to: "2024-02-29",
    });
    expect(windowDates({ since: null, until: "2023-11" })).toEqual({
      date_from: null,
      date_to: "2023-11-30",
    });
  });
});
