import { z } from "zod";
import { writeHints, writeTool } from "../define.js";
import { rankedEntriesArg, scanEnvelopeShape, scanIdArg } from "../scan-parts.js";

export const scan_verify = writeTool({
  name: "scan_verify",
  title: "Verify and finish a literature scan",
  description:
    "Check every ranked paper against resmon's stored record and its lifecycle (basis resmon_record; nothing is repaired), drop retractions, and write evidence.json, evidence.md and evidence.bib. Needs every shortlisted paper ranked; ranked_entries given here are merged first. A finished scan answers its stored result and takes nothing new.",
  kind: "write",
  requiresConfirmation: true,
  annotations: writeHints(true, false),
  input: z.strictObject({
    scan_id: scanIdArg(),
    ranked_entries: rankedEntriesArg().optional(),
  }),
  output: scanEnvelopeShape(),
  routes: [
    { method: "POST", path: "/api/export/references" },
    { method: "GET", path: "/api/documents/{doc_id}/lifecycle" },
    { method: "GET", path: "/api/health" },
  ],
});
