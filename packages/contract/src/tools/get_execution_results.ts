import { z } from "zod";
import { readTool } from "../define.js";
import { idArg, limitArg, offsetArg, paperShape } from "../schema-parts.js";

export const get_execution_results = readTool({
  name: "get_execution_results",
  title: "Execution papers",
  description: "A run's papers, paged. Each id is a doc_id for explain_match.",
  input: () =>
    z.strictObject({
      exec_id: idArg(),
      limit: limitArg(),
      offset: offsetArg(),
    }),
  output: () =>
    z.looseObject({
      papers: z.array(paperShape()),
      total: z.int().optional(),
    }),
  routes: [{ method: "GET", path: "/api/executions/{exec_id}/references" }],
  example: { exec_id: 1 },
  budget: 300,
});
