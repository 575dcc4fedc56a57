import { randomUUID } from "node:crypto";
import type { QueryPlan, ToolArgs } from "@resmon/mcp-contract";

type ScanStartArgs = ToolArgs<"scan_start">;

/** A plan over the stand-in's graph-learning topic (sweeps match every word of the query in a title). */
export const GRAPH_PLAN: QueryPlan = {
  criteria: [
    { id: "C1", text: "Studies graph neural networks" },
    { id: "C2", text: "Uses attention or message passing" },
    { id: "C3", text: "Reports results on sparse graphs" },
  ],
  queries: [
    { id: "Q1", kind: "direct", text: "graph" },
    { id: "Q2", kind: "terminology", text: "neural" },
    { id: "Q3", kind: "contradictory", text: "attention" },
    { id: "Q4", kind: "review", text: "network" },
    { id: "Q5", kind: "mechanism", text: "message" },
    { id: "Q6", kind: "adjacent", text: "sparse", must_not: ["passing"] },
  ],
};

export function startArgs(overrides: Partial<ScanStartArgs> = {}): ScanStartArgs {
  return {
    scan_id: randomUUID(),
    brief: "# Graph learning\nWhat do graph neural networks gain from attention?",
    queries: GRAPH_PLAN,
    sources: ["arxiv", "openalex"],
    profile: "quick",
    per_query: 8,
    // Each test's scan is its own, even beside an open one with the same plan (refusals.test.ts
    // sends the same inputs without it).
    allow_duplicate: true,
    ...overrides,
  };
}
