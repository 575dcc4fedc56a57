import { z } from "zod";
import { writeTool } from "../define.js";
import { dateArg, sourcesArg } from "../schema-parts.js";

/**
 * resmon's SweepRequest declares max_results as a bare integer (default 100) with no bound, so the
 * bound is this contract's (ten times resmon's default): 2^53-1 would ask every source for everything.
 */
export const MAX_SWEEP_RESULTS = 1000;

export const run_sweep = writeTool({
  name: "run_sweep",
  title: "Run sweep",
  description:
    "A one-off search of sources; returns execution_id at once, poll get_execution. The run may end interrupted, which is not failed. conflict at the run limit.",
  idempotent: false,
  openWorld: true,
  input: () =>
    z.strictObject({
      query: z.string().min(1),
      sources: sourcesArg().min(1),
      date_from: dateArg(),
      date_to: dateArg(),
      max_results: z.int().min(1).max(MAX_SWEEP_RESULTS).optional().describe("Per source (default 100)."),
      ai_enabled: z.boolean().optional(),
    }),
  output: () => z.looseObject({ execution_id: z.int() }),
  // The catalog is read (once per runtime id) to refuse an unknown source slug by name.
  routes: [
    { method: "POST", path: "/api/search/sweep" },
    { method: "GET", path: "/api/repositories/catalog" },
  ],
  example: { query: "model", sources: ["arxiv"] },
  budget: 80,
});
