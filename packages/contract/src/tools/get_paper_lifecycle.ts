import { z } from "zod";
import { readHints, readTool } from "../define.js";
import { idArg } from "../schema-parts.js";

export const get_paper_lifecycle = readTool({
  name: "get_paper_lifecycle",
  title: "Get a paper's lifecycle",
  description:
    "What happened to a paper after publication: retractions, expressions of concern, corrections, preprint to published, version changes, each with its notice link.",
  kind: "read",
  requiresConfirmation: false,
  annotations: readHints(false),
  input: z.strictObject({ doc_id: idArg("Corpus document id.") }),
  output: z.looseObject({
    events: z.array(z.looseObject({ kind: z.string() })),
  }),
  routes: [{ method: "GET", path: "/api/documents/{doc_id}/lifecycle" }],
});
