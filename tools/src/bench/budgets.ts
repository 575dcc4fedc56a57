/**
 * Token budgets (cl100k_base), enforced by tools/test/token-budget.test.ts against the demo data.
 * Each is the size measured (cl100k_base) when it was set plus about 20–25% room, so a change that grows
 * an answer noticeably fails a test and has to move its budget here, in review.
 */
/** Contract 1.1's four scan tools in tools/list (measured 2,468 tokens with output schemas, 1,944 without). */
export const SCAN_TOOLS_LIST_BUDGET = {
  full: 3_000,
  withoutOutputSchemas: 2_400,
};

export const TOOLS_LIST_BUDGET = {
  /** Every tool with output schemas: what a harness pays once per session (1.0's 25: 8,800, plus the scan tools). */
  full: 8_800 + SCAN_TOOLS_LIST_BUDGET.full,
  /** The same without output schemas (outputSchemas: false). */
  withoutOutputSchemas: 6_400 + SCAN_TOOLS_LIST_BUDGET.withoutOutputSchemas,
  /** A read-only session (19 tools: 1.0's 18 reads and scan_result). */
  readOnly: 6_400,
};

/**
 * The scan envelopes (a scripted scan on the demo data, tools/src/bench/tokens.ts scanEnvelopes),
 * which the design asks to stay "a few thousand tokens" each. Measured: a 25-item screening batch
 * (abstracts cut at 320 characters by the engine) 1,977; a 10-paper shortlist page 1,065; the result 838.
 */
export const SCAN_ENVELOPE_BUDGET: Record<string, number> = {
  "screening batch": 2_500,
  "shortlist page": 1_350,
  result: 1_050,
};

/** Each tool's answer to DEFAULT_CALLS (only required arguments, every default applied). */
export const DEFAULT_ANSWER_BUDGET: Record<string, number> = {
  health: 200,
  search_corpus: 2_200,
  find_similar: 2_200,
  list_sources: 850,
  list_routines: 500,
  get_routine: 2_900,
  list_executions: 2_100,
  get_execution: 1_150,
  get_execution_results: 300,
  get_search_record: 1_000,
  explain_match: 500,
  get_paper_lifecycle: 320,
  get_analytics: 10_000,
  get_watchdog_findings: 950,
  export_references: 500,
  list_watch_profiles: 400,
  get_watch_profile: 350,
  get_profile_matches: 3_200,
  run_sweep: 80,
  create_routine: 260,
  create_watch_profile: 300,
  run_routine: 100,
  activate_routine: 20,
  deactivate_routine: 20,
  update_settings: 60,
};
