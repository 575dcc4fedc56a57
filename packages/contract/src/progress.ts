/**
 * The tool calls that report progress (contract 1.4): when a call's request carries
 * `_meta.progressToken`, the server sends `notifications/progress` for it while the call works
 * (at most PROGRESS_MAX_PER_SECOND a second, none after the answer), each with a short `message`;
 * a call without a token gets none, and nothing else about the call changes.
 */
export const PROGRESS_TOOLS = {
  scan_start: "retrieval: sweeps and corpus searches finished of those planned, then candidates pooled",
  scan_continue:
    "while a round's retrieval runs: retrievals finished of those planned, then candidates pooled",
  scan_verify: "papers checked against resmon's record of those ranked, then the BibTeX export",
  export_references: "the steps of the export: reading the run, then resmon's export",
} as const;

export type ProgressToolName = keyof typeof PROGRESS_TOOLS;

/** The most progress notifications one call sends in a second. */
export const PROGRESS_MAX_PER_SECOND = 4;

export function reportsProgress(name: string): name is ProgressToolName {
  return Object.hasOwn(PROGRESS_TOOLS, name);
}
