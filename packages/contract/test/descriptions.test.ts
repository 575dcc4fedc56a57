import { describe, expect, it } from "vitest";
import { SETTINGS_KEYS_WRITABLE, TOOL_BY_NAME, type ToolName } from "../src/index.js";

/**
 * What the spec requires a caller to be told, and so what a tool's description must carry however
 * short it gets. Each entry: the tool, what its description must say, and the spec's reason.
 */
const REQUIRED: readonly { tool: ToolName; says: RegExp; because: string }[] = [
  {
    tool: "run_sweep",
    says: /may end interrupted/,
    because: "run_sweep's description says the run may end interrupted",
  },
  { tool: "run_sweep", says: /interrupted, which is not failed/, because: "interrupted is not failed" },
  { tool: "run_sweep", says: /poll get_execution/, because: "Progress is polled with get_execution" },
  {
    tool: "get_execution",
    says: /interrupted is not failed/,
    because: "a caller must not report it as a search that failed",
  },
  { tool: "get_execution", says: /interrupted_reason null means unknown/, because: "null ... never a guess" },
  { tool: "list_executions", says: /interrupted .* is not failed/, because: "interrupted is not failed" },
  {
    tool: "run_routine",
    says: /Read queued before execution_id/,
    because: "a caller must read queued before it reads execution_id",
  },
  { tool: "run_routine", says: /execution_id null/, because: "a queued run has no execution yet" },
  { tool: "run_routine", says: /interrupted is not failed/, because: "interrupted is not failed" },
  { tool: "run_routine", says: /even if inactive/, because: "the endpoint runs an inactive routine" },
  {
    tool: "search_corpus",
    says: /offset is refused/,
    because: "an explicit offset is refused rather than ignored",
  },
  {
    tool: "search_corpus",
    says: /next_cursor/,
    because: "search_corpus takes a cursor and returns next_cursor",
  },
  { tool: "search_corpus", says: /can differ/, because: "The two modes can therefore return different sets" },
  {
    tool: "search_corpus",
    says: /mode says what was served/,
    because: "The answer always reports the mode it served",
  },
  {
    tool: "search_corpus",
    says: /mode_unavailable/,
    because: "semantic can decline ... a mode_unavailable sentence",
  },
  {
    tool: "find_similar",
    says: /empty list carries a reason/,
    because: "An empty list always carries a reason",
  },
  {
    tool: "get_profile_matches",
    says: /each with basis, matched_author, evidence/,
    because: "every row carries basis, matched_author and evidence",
  },
  {
    tool: "get_profile_matches",
    says: /never call it that person's paper or drop the basis/,
    because: "a name_only match is not the person's paper",
  },
  {
    tool: "get_watch_profile",
    says: /name_only is a string match, not an identity/,
    because: "An author match is a string match unless the source gave an identifier",
  },
  {
    tool: "list_watch_profiles",
    says: /Repeat a row's basis_warning/,
    because: "a list is what a harness summarizes from",
  },
  {
    tool: "create_watch_profile",
    says: /basis_warning .*repeat it/,
    because: "placement is the whole of whether a caller repeats it",
  },
  {
    tool: "create_routine",
    says: /created INACTIVE/,
    because: "create_routine creates the routine inactive",
  },
  {
    tool: "create_routine",
    says: /omit, not repeat keywords/,
    because: "intent is never defaulted from keywords",
  },
  {
    tool: "create_routine",
    says: /Repeat an entity_warning/,
    because: "a watch routine that will find nothing forever is exactly the thing a caller must repeat",
  },
  {
    tool: "get_watchdog_findings",
    says: /severity you do not know is not an alarm/,
    because: "A caller that switches on severity should read a value it does not know as not an alarm",
  },
  {
    tool: "get_watchdog_findings",
    says: /pass on what it cannot judge/,
    because: "the watchdog's own list of what it cannot judge ... A harness must receive those caveats",
  },
  {
    tool: "explain_match",
    says: /matching no keyword is expected/,
    because: "a paper matching no keyword is expected rather than a fault",
  },
  {
    tool: "explain_match",
    says: /pass the caveats on/,
    because: "A harness must receive those caveats, not a cleaned-up answer",
  },
  {
    tool: "get_execution_results",
    says: /doc_id for explain_match/,
    because: "usable unchanged as explain_match's doc_id",
  },
  {
    tool: "get_search_record",
    says: /queries_as_sent is what each source got/,
    because: "search.queries_as_sent is what each source's requests carried",
  },
  {
    tool: "get_search_record",
    says: /query_as_sent the typed terms/,
    because: "search.query_as_sent the terms as typed",
  },
  {
    tool: "get_routine",
    says: /totals/,
    because: "coverage counts are totals, not the length of the returned page",
  },
  {
    tool: "get_routine",
    says: /\*_is_lower_bound means 'at least'/,
    because: "'63' and 'at least 63' are different facts",
  },
  {
    tool: "get_routine",
    says: /absent, not zero/,
    because: "leaves the key off entirely rather than reporting zero destinations",
  },
  {
    tool: "health",
    says: /expected_runtime_id/,
    because: "call health, then pass identity.runtime_id as expected_runtime_id",
  },
  { tool: "export_references", says: /exactly one/, because: "`exec_id` or `doc_ids`" },
  {
    tool: "export_references",
    says: /25,000 tokens/,
    because: "no answer may cost more than a client takes without saying so",
  },
  {
    tool: "update_settings",
    says: /refused by name/,
    because: "refused on the name before any request is built",
  },
  { tool: "update_settings", says: /"true"\/"false"/, because: 'send "true" or "false"' },
  { tool: "deactivate_routine", says: /nothing is deleted/, because: "Nothing deletes" },
];

describe("the sentences a description must carry", () => {
  it.each(REQUIRED.map((r) => [r.tool, r.says, r.because] as const))("%s says %s (%s)", (tool, says) => {
    expect(TOOL_BY_NAME[tool].description).toMatch(says);
  });

  it("counts the writable settings keys from the settings list, not a literal", () => {
    expect(TOOL_BY_NAME.update_settings.description).toContain(
      `Only ${SETTINGS_KEYS_WRITABLE.length} keys are writable`,
    );
  });
});
