import { TOOLS } from "@resmon/mcp-contract";

type Call = readonly [string, Record<string, unknown>];

const exampleOf = (kind: "read" | "write"): readonly Call[] =>
  TOOLS.filter((t) => t.kind === kind && !t.exampleNeeds).map(
    (t) => [t.name, t.example as Record<string, unknown>] as const,
  );

/**
 * Each read's example call, from its contract row: it succeeds against the stand-in's `small` seed.
 * A row whose example needs other calls first (a scan tool's) is left to its own end-to-end test.
 */
export const VALID_CALLS: readonly Call[] = exampleOf("read");

/** Each write's example call, for the checks that only need them refused or routed (never for the load run's success count). */
export const WRITE_CALLS: readonly Call[] = exampleOf("write");

/** A spread of tools for the fault groups: reads on one and two routes, paged, bound to a runtime, and a write. */
export const FAULT_SPREAD: readonly [string, Record<string, unknown>][] = [
  ["health", {}],
  ["search_corpus", { query: "graph", limit: 3 }],
  ["list_routines", {}],
  ["get_routine", { routine_id: 1 }],
  ["get_execution", { exec_id: 1 }],
  ["list_sources", {}],
  ["get_profile_matches", { profile_id: 1, limit: 2 }],
  ["update_settings", { group: "ai", settings: { ai_model: "claude-sonnet-4-5" } }],
];
