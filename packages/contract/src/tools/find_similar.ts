import { z } from "zod";
import { readTool } from "../define.js";
import { idArg, limitArg, paperShape } from "../schema-parts.js";

export const find_similar = readTool({
  name: "find_similar",
  title: "Similar papers",
  description:
    "Papers nearest one paper by meaning. An empty list carries a reason: report it, not 'nothing similar'.",
  input: () =>
    z.strictObject({
      doc_id: idArg(),
      limit: limitArg(),
    }),
  output: () =>
    z.looseObject({
      papers: z.array(paperShape().extend({ distance: z.number().nullable().optional() })),
      model: z.string().nullable().optional(),
      reason: z.string().optional(),
    }),
  routes: [{ method: "GET", path: "/api/documents/{document_id}/similar" }],
  example: { doc_id: 1 },
  budget: 2_200,
});
