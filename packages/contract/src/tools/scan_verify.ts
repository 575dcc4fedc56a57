import { z } from "zod";
import { writeTool } from "../define.js";
import { rankedEntriesArg, scanEnvelopeShape, scanIdArg } from "../scan-parts.js";

export const scan_verify = writeTool({
  name: "scan_verify",
  title: "Verify scan",
  description:
    "Check each ranked paper against resmon's record and lifecycle (basis resmon_record; nothing repaired), drop retractions, write evidence.json/md/bib. Needs the whole shortlist ranked; a finished scan answers its result.",
  idempotent: true,
  openWorld: false,
  input: () =>
    z.strictObject({
      scan_id: scanIdArg(),
      ranked_entries: rankedEntriesArg().optional(),
    }),
  output: () => scanEnvelopeShape(),
  routes: [
    { method: "POST", path: "/api/export/references" },
    { method: "GET", path: "/api/documents/{doc_id}/lifecycle" },
    { method: "GET", path: "/api/health" },
  ],
  example: { scan_id: "0b7e5c1e-3f3a-4c55-9a51-2f1d7c0e9a10" },
  exampleNeeds: "a scan whose every shortlisted paper is ranked (scan-e2e.test.ts runs the sequence)",
  // The result envelope (SCAN_ENVELOPE_BUDGET in the bench).
  budget: 1_650,
});
