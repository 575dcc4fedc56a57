import { z } from "zod";
import { writeHints, writeTool } from "../define.js";
import { dateArg, sourcesArg } from "../schema-parts.js";

/**
 * resmon's SweepRequest declares max_results as a bare integer (default 100) with no bound, so the
 * bound is this contract's (ten times resmon's default): 2^53-1 would ask every source for everything.
 */
export const MAX_SWEEP_RESULTS = 1000;

export const run_sweep = writeTool({
  name: "run_sweep",
  title: "Run a sweep",
  description:
    "Start a one-off search of external sources; it is recorded in the run history. Returns execution_id at once; poll get_execution. A run may end interrupted (resmon stopped mid-run), which is not failed. Without date_from, bioRxiv and medRxiv are asked for the few days before the run; other sources exactly as given. An unknown source is accepted and fails in the run. At resmon's run limit the call is a conflict: try later.",
  kind: "write",
  requiresConfirmation: true,
  annotations: writeHints(false, true),
  input: z.strictObject({
    query: z.string().min(1).describe("Search terms."),
    sources: sourcesArg("Sources to ask").min(1),
    date_from: dateArg("Published on or after"),
    date_to: dateArg("Published on or before"),
    max_results: z
      .int()
      .min(1)
      .max(MAX_SWEEP_RESULTS)
      .optional()
      .describe("Most results per source (resmon's default 100)."),
    ai_enabled: z.boolean().optional().describe("Summarize results with the configured AI (default off)."),
  }),
  output: z.looseObject({ execution_id: z.int() }),
  routes: [{ method: "POST", path: "/api/search/sweep" }],
});
