import { z } from "zod";
import { readHints, readTool } from "../define.js";
import { MAX_LIMIT } from "../schema-parts.js";

export const EXPORT_FORMATS = ["bibtex", "ris", "csv", "json"] as const;

export const export_references = readTool({
  name: "export_references",
  title: "Export references",
  description:
    "Reference text (BibTeX, RIS, CSV or JSON) for one run's papers (exec_id) or for chosen papers (doc_ids) - exactly one of the two. Unknown doc_ids are dropped by resmon. BibTeX keys are unique within one file only. An exec_id export is the whole run in one answer, not paged: about 135 tokens a paper in BibTeX (80 in CSV), so a run of more than about 180 papers passes 25,000 tokens, which some clients refuse; for a large run, export doc_ids in batches of up to 100 (ids from get_execution_results).",
  kind: "read",
  requiresConfirmation: false,
  annotations: readHints(false),
  // No root union: a top-level anyOf breaks some harnesses. The server enforces "exactly one".
  input: z.strictObject({
    exec_id: z.int().min(1).optional().describe("Execution id; give this or doc_ids, not both."),
    doc_ids: z
      .array(z.int().min(1))
      .min(1)
      .max(MAX_LIMIT)
      .optional()
      .describe(`Corpus document ids, up to ${MAX_LIMIT}; give these or exec_id, not both.`),
    format: z.enum(EXPORT_FORMATS).describe("bibtex, ris, csv or json."),
  }),
  output: z.looseObject({
    format: z.enum(EXPORT_FORMATS),
    text: z.string(),
  }),
  // Both forms post to the export route (the spec's); exec_id first reads the run, since the export
  // route drops an unknown execution id silently.
  routes: [
    { method: "POST", path: "/api/export/references" },
    { method: "GET", path: "/api/executions/{exec_id}" },
  ],
});
