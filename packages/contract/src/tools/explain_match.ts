import { z } from "zod";
import { readHints, readTool } from "../define.js";
import { idArg } from "../schema-parts.js";

export const explain_match = readTool({
  name: "explain_match",
  title: "Explain a match",
  description:
    "Why a paper matched: which keywords, in which field, and what resmon cannot verify. Most sources rank by relevance, so a paper matching no keyword is expected, not a fault. Pass the caveats (what_resmon_cannot_see) on to the user.",
  kind: "read",
  requiresConfirmation: false,
  annotations: readHints(false),
  input: z.strictObject({ doc_id: idArg("Corpus document id.") }),
  output: z.looseObject({ what_resmon_cannot_see: z.array(z.string()) }),
  routes: [{ method: "GET", path: "/api/documents/{doc_id}/why" }],
});
