import { z } from "zod";
import { readTool } from "../define.js";
import { idArg } from "../schema-parts.js";

export const get_paper_lifecycle = readTool({
  name: "get_paper_lifecycle",
  title: "Paper lifecycle",
  description: "A paper's retractions, concerns, corrections, versions; notice links.",
  input: () => z.strictObject({ doc_id: idArg() }),
  output: () =>
    z.looseObject({
      events: z.array(z.looseObject({ kind: z.string() })),
    }),
  routes: [{ method: "GET", path: "/api/documents/{doc_id}/lifecycle" }],
  example: { doc_id: 7 },
  budget: 320,
});
