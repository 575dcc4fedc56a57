/**
 * Token budgets (cl100k_base) for tools/list, enforced by tools/test/token-budget.test.ts. Each is
 * the size measured when it was set plus about 10% room, so a change that grows the list noticeably
 * fails a test and has to move its budget here, in review. Each tool's answer budget is its row's
 * (`budget` in the contract's table).
 */
export const TOOLS_LIST_BUDGET = {
  /** Every tool with its output schema: what a harness pays once per session (3,650 measured; 7,447 before the trim). */
  full: 4_000,
  /** Every tool without output schemas (outputSchemas: false): 3,294 measured (5,389 before). */
  withoutOutputSchemas: 3_600,
  /** A read-only session (the reads only): 2,354 measured (5,241 before). */
  readOnly: 2_600,
};
