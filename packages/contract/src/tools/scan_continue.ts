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
    "Send the one artifact next_action asks for: screen_scores, gap_queries or ranked_entries; none polls. Resent unchanged: replayed; changed: conflict.",
  idempotent: true,
  openWorld: true,
  input: z.strictObject({
    scan_id: scanIdArg(),
    screen_scores: screenScoresArg().optional(),
    gap_queries: gapQueriesArg().optional(),
    ranked_entries: rankedEntriesArg().optional(),
  }),
  output: scanEnvelopeShape(),
  routes: [...SCAN_RETRIEVAL_ROUTES, { method: "GET", path: "/api/documents/{document_id}/similar" }],
  example: { scan_id: "0b7e5c1e-3f3a-4c55-9a51-2f1d7c0e9a10" },
  exampleNeeds: "a scan scan_start started (packages/mcp-server/test/scan-e2e.test.ts runs the sequence)",
  budget: 2_500,
});
