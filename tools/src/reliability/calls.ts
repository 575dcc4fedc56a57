/**
 * The reliability suite's example calls, in one module (until the contract's rows carry their own
 * example arguments, issue 13): one per read (two for a few) that succeeds against the stand-in's
 * `small` seed.
 */
export const VALID_CALLS: readonly [string, Record<string, unknown>][] = [
  ["health", {}],
  ["search_corpus", { query: "graph", limit: 3 }],
  ["search_corpus", { query: "graph neural network", mode: "semantic", limit: 3 }],
  ["find_similar", { doc_id: 1, limit: 3 }],
  ["list_sources", {}],
  ["list_routines", { active_only: true }],
  ["get_routine", { routine_id: 1 }],
  ["list_executions", { limit: 5 }],
  ["get_execution", { exec_id: 1 }],
  ["get_execution_results", { exec_id: 1, limit: 2, offset: 1 }],
  ["get_search_record", { exec_id: 1 }],
  ["explain_match", { doc_id: 1 }],
  ["get_paper_lifecycle", { doc_id: 7 }],
  ["get_analytics", { view: "volume", window: 6 }],
  ["get_analytics", { view: "routine-health" }],
  ["get_watchdog_findings", { include_muted: false }],
  ["export_references", { doc_ids: [1, 2], format: "csv" }],
  ["list_watch_profiles", { kind: "person" }],
  ["get_watch_profile", { profile_id: 1 }],
  ["get_profile_matches", { profile_id: 1, limit: 5 }],
];

/** Writes, for the checks that only need them refused or routed (never for the load run's success count). */
export const WRITE_CALLS: readonly [string, Record<string, unknown>][] = [
  ["run_sweep", { query: "protein folding", sources: ["biorxiv", "arxiv"] }],
  ["create_routine", { name: "Reliability", keywords: ["graph"], sources: ["arxiv"], schedule: "0 7 * * 1" }],
  ["create_watch_profile", { name: "Jane Doe", orcid: "0000-0001-2345-6789" }],
  ["run_routine", { routine_id: 3 }],
  ["activate_routine", { routine_id: 3 }],
  ["deactivate_routine", { routine_id: 3 }],
  ["update_settings", { group: "ai", settings: { ai_model: "claude-opus-4" } }],
];

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
