import { z } from "zod";
import { readHints, readTool } from "../define.js";
import { idArg, limitArg, paperShape } from "../schema-parts.js";

export const find_similar = readTool({
  name: "find_similar",
  title: "Find similar papers",
  description:
    "The stored papers nearest one paper by meaning, with distances and sources. Uses the stored vector; calls no embedding provider. An empty list always carries a reason (this paper not embedded, nothing else embedded, no vector extension) - report the reason, not 'nothing similar'.",
  kind: "read",
  requiresConfirmation: false,
  annotations: readHints(false),
  input: z.strictObject({
    doc_id: idArg("Corpus document id."),
    limit: limitArg(),
  }),
  output: z.looseObject({
    papers: z.array(paperShape().extend({ distance: z.number().nullable().optional() })),
    model: z.string().nullable().optional(),
    reason: z.string().optional(),
  }),
  routes: [{ method: "GET", path: "/api/documents/{document_id}/similar" }],
});
