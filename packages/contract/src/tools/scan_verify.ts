import { z } from "zod";
import { writeHints, writeTool } from "../define.js";
import { rankedEntriesArg, scanEnvelopeShape, scanIdArg } from "../scan-parts.js";

export const scan_verify = writeTool({
  name: "scan_verify",
  title: "Verify scan",
  description:
    "Check every ranked paper against resmon's record and lifecycle (basis resmon_record; nothing repaired), drop retractions, write evidence.json/md/bib. Needs every shortlisted paper ranked; a finished scan answers its stored result.",
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
