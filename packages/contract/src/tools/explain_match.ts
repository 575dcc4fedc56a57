import { z } from "zod";
import { readTool } from "../define.js";
import { idArg } from "../schema-parts.js";

export const explain_match = readTool({
  name: "explain_match",
  title: "Explain match",
  description:
    "Why a paper matched and what resmon cannot verify. Sources rank by relevance: matching no keyword is expected; pass the caveats on.",
  input: () => z.strictObject({ doc_id: idArg() }),
  output: () => z.looseObject({ what_resmon_cannot_see: z.array(z.string()) }),
  routes: [{ method: "GET", path: "/api/documents/{doc_id}/why" }],
  example: { doc_id: 1 },
  budget: 500,
});
