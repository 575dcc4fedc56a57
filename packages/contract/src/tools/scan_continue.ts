import { z } from "zod";
import { writeTool } from "../define.js";
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
    "Send what next_action asks for, or stop_screening when offered; none polls. Resent unchanged: replayed; changed: conflict, but a score may be corrected with a reason before the shortlist.",
  idempotent: true,
  openWorld: true,
  input: () =>
    z.strictObject({
      scan_id: scanIdArg(),
      screen_scores: screenScoresArg().optional(),
      gap_queries: gapQueriesArg().optional(),
      ranked_entries: rankedEntriesArg().optional(),
      stop_screening: z.literal(true).optional().describe("Offered in payload.options."),
    }),
  output: () => scanEnvelopeShape(),
  routes: [...SCAN_RETRIEVAL_ROUTES, { method: "GET", path: "/api/documents/{document_id}/similar" }],
  example: { scan_id: "0b7e5c1e-3f3a-4c55-9a51-2f1d7c0e9a10" },
  exampleNeeds: "a scan scan_start started (packages/mcp-server/test/scan-e2e.test.ts runs the sequence)",
  budget: 2_500,
});
