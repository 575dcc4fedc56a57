import { z } from "zod";
import { writeHints, writeTool } from "../define.js";
import {
  gapQueriesArg,
  rankedEntriesArg,
  SCAN_RETRIEVAL_ROUTES,
  scanEnvelopeShape,
  scanIdArg,
  screenScoresArg,
} from "../scan-parts.js";

export const scan_continue = writeTool({
  name: "scan_continue",
  title: "Continue a literature scan",
  description:
    "Send the artifact next_action asks for, exactly one: screen_scores (every item of the batch), gap_queries ([] skips; may start sweeps) or ranked_entries (the shortlist page). With none it polls and runs the next step. An accepted artifact sent again unchanged answers replayed: true; changed, it is a conflict.",
  kind: "write",
  requiresConfirmation: true,
  annotations: writeHints(true, true),
  input: z.strictObject({
    scan_id: scanIdArg(),
    screen_scores: screenScoresArg().optional(),
    gap_queries: gapQueriesArg().optional(),
    ranked_entries: rankedEntriesArg().optional(),
  }),
  output: scanEnvelopeShape(),
  routes: [...SCAN_RETRIEVAL_ROUTES, { method: "GET", path: "/api/documents/{document_id}/similar" }],
});
