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
  title: "Continue scan",
  description:
    "Send the one artifact next_action asks for: screen_scores (every batch item), gap_queries ([] skips the round) or ranked_entries (the page); none polls. An accepted artifact resent unchanged is replayed: true; changed, a conflict.",
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
