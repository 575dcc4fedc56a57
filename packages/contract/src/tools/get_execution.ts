import { z } from "zod";
import { readHints, readTool } from "../define.js";
import { expectedRuntimeIdArg, idArg, identityShape, notReportedShape } from "../schema-parts.js";

export const get_execution = readTool({
  name: "get_execution",
  title: "Get an execution",
  description:
    "One run: status (running|completed|failed|cancelled|interrupted), per-source counts and coverage, timings, AI lane, parameters, interruption fields, identity. Poll this after run_sweep or run_routine. interrupted is not failed: the process ended, nothing is claimed about the search; interrupted_reason null means unknown, never a guess. A source's zero carries its reason.",
  kind: "read",
  requiresConfirmation: false,
  annotations: readHints(false),
  input: z.strictObject({
    exec_id: idArg("Execution id."),
    expected_runtime_id: expectedRuntimeIdArg(),
  }),
  output: z.looseObject({
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
});
