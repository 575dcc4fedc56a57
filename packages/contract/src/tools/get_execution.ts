import { z } from "zod";
import { readTool } from "../define.js";
import { expectedRuntimeIdArg, idArg, identityShape, notReportedShape } from "../schema-parts.js";

export const get_execution = readTool({
  name: "get_execution",
  title: "Execution",
  description:
    "A run: status, per-source counts, zero reasons, parameters. interrupted is not failed; interrupted_reason null means unknown.",
  input: () =>
    z.strictObject({
      exec_id: idArg(),
      expected_runtime_id: expectedRuntimeIdArg(),
    }),
  output: () =>
    z.looseObject({
      id: z.int(),
      status: z.string(),
      interrupted_reason: z.string().nullable().optional(),
      restarted_from: z.int().nullable().optional(),
      restarted_into: z.array(z.unknown()).optional(),
      identity: identityShape().optional(),
      // The row is passed whole except progress_events, summarized as these two.
      last_event: z.unknown().optional(),
      event_count: z.int().optional(),
      not_reported: notReportedShape(),
    }),
  // With expected_runtime_id the server first asks health with the same expectation.
  routes: [
    { method: "GET", path: "/api/executions/{exec_id}" },
    { method: "GET", path: "/api/health" },
  ],
  example: { exec_id: 1 },
  budget: 1_150,
});
