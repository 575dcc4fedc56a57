import { z } from "zod";
import { readTool } from "../define.js";
import { MAX_LIMIT } from "../schema-parts.js";

export const EXPORT_FORMATS = ["bibtex", "ris", "csv", "json"] as const;

export const export_references = readTool({
  name: "export_references",
  title: "Export references",
  description:
    "References of one run (exec_id) or doc_ids, exactly one. A run comes whole: in BibTeX past ~180 papers it tops 25,000 tokens; then export doc_ids in batches.",
  // No root union: a top-level anyOf breaks some harnesses. The server enforces "exactly one".
  input: () =>
    z.strictObject({
      exec_id: z.int().min(1).optional(),
      doc_ids: z.array(z.int().min(1)).min(1).max(MAX_LIMIT).optional(),
      format: z.enum(EXPORT_FORMATS),
    }),
  output: () =>
    z.looseObject({
      format: z.enum(EXPORT_FORMATS),
      text: z.string(),
    }),
  // Both forms post to the export route (the spec's); exec_id first reads the run, since the export
  // route drops an unknown execution id silently.
  routes: [
    { method: "POST", path: "/api/export/references" },
    { method: "GET", path: "/api/executions/{exec_id}" },
  ],
  example: { exec_id: 1, format: "bibtex" },
  budget: 500,
});
