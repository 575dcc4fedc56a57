import { z } from "zod";
import { readTool } from "../define.js";
import { dateArg, limitArg, paperShape, sourcesArg } from "../schema-parts.js";

export const search_corpus = readTool({
  name: "search_corpus",
  title: "Search corpus",
  description:
    "Search stored papers. keyword filters on every word; semantic ranks by meaning (sets can differ). mode says what was served, mode_unavailable why not semantic. Pages by next_cursor; offset is refused.",
  // Semantic mode may embed the query through the user's configured embedding provider,
  // which can be a remote service: the query text can leave the machine.
  openWorld: true,
  input: () =>
    z.strictObject({
      query: z.string().min(1),
      mode: z.enum(["keyword", "semantic"]).default("keyword"),
      sources: sourcesArg().optional(),
      date_from: dateArg(),
      date_to: dateArg(),
      limit: limitArg(),
      cursor: z.string().min(1).optional(),
    }),
  output: () =>
    z.looseObject({
      papers: z.array(paperShape().extend({ distance: z.number().nullable().optional() })),
      next_cursor: z.string().nullable(),
      mode: z.enum(["keyword", "semantic"]),
      ranked_count: z.int().optional(),
      unranked_count: z.int().optional(),
      model: z.string().nullable().optional(),
      mode_unavailable: z.string().optional(),
    }),
  // The catalog is read (once per runtime id) to refuse an unknown source slug by name.
  routes: [
    { method: "POST", path: "/api/explorer/search" },
    { method: "GET", path: "/api/repositories/catalog" },
  ],
  // An offset is refused rather than ignored: resmon seeks the corpus on (publication date, id).
  refuses: {
    offset:
      "search_corpus pages by cursor, not offset: pass the next_cursor of the previous answer as cursor. resmon seeks the corpus on (publication date, id), and emulating an offset would re-read every earlier page on each call, so an offset is refused rather than silently ignored.",
  },
  example: { query: "model" },
  budget: 2_200,
});
