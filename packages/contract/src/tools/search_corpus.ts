import { z } from "zod";
import { readHints, readTool } from "../define.js";
import { dateArg, limitArg, paperShape, sourcesArg } from "../schema-parts.js";

export const search_corpus = readTool({
  name: "search_corpus",
  title: "Search the corpus",
  description:
    "Search papers resmon has already collected. keyword (default) filters on every word of query; semantic ranks by meaning, so the two modes can return different sets. The answer's mode is what was served: semantic can decline and then says so in mode_unavailable. In semantic mode ranked_count/unranked_count say how much is ordered. Pages by cursor: pass next_cursor back; offset is refused.",
  kind: "read",
  requiresConfirmation: false,
  // Semantic mode may embed the query through the user's configured embedding provider,
  // which can be a remote service: the query text can leave the machine.
  annotations: readHints(true),
  input: z.strictObject({
    query: z.string().min(1).describe("Words to filter on (keyword) or to rank by (semantic)."),
    mode: z.enum(["keyword", "semantic"]).default("keyword").describe("keyword (default) or semantic."),
    sources: sourcesArg("Only these sources").optional(),
    date_from: dateArg("Published on or after"),
    date_to: dateArg("Published on or before"),
    limit: limitArg(),
    cursor: z.string().min(1).optional().describe("next_cursor from the previous page."),
  }),
  output: z.looseObject({
    papers: z.array(paperShape().extend({ distance: z.number().nullable().optional() })),
    next_cursor: z.string().nullable(),
    mode: z.enum(["keyword", "semantic"]),
    ranked_count: z.int().optional(),
    unranked_count: z.int().optional(),
    model: z.string().nullable().optional(),
    mode_unavailable: z.string().optional(),
  }),
  routes: [{ method: "POST", path: "/api/explorer/search" }],
});
