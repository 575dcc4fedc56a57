import { z } from "zod";
import { readHints, readTool } from "../define.js";
import { idArg, limitArg, offsetArg, paperShape } from "../schema-parts.js";

export const get_execution_results = readTool({
  name: "get_execution_results",
  title: "Get an execution's papers",
  description:
    "The papers one run found, a page at a time. Each id is the corpus document id, usable as explain_match's doc_id (not a cross-corpus identifier).",
  kind: "read",
  requiresConfirmation: false,
  annotations: readHints(false),
  input: z.strictObject({
    exec_id: idArg("Execution id."),
    limit: limitArg(),
    offset: offsetArg(),
  }),
  output: z.looseObject({
    papers: z.array(paperShape()),
    total: z.int().optional(),
  }),
  routes: [{ method: "GET", path: "/api/executions/{exec_id}/references" }],
});
