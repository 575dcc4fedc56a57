import { z } from "zod";
import { readTool } from "../define.js";
import { idArg } from "../schema-parts.js";

export const get_search_record = readTool({
  name: "get_search_record",
  title: "Search record",
  description:
    "A run's record: search.queries_as_sent is what each source got (null for old runs), query_as_sent the typed terms. An unexplained zero proves nothing.",
  input: () => z.strictObject({ exec_id: idArg() }),
  output: () =>
    z.looseObject({
      search: z.looseObject({
        queries_as_sent: z.array(z.looseObject({})).nullable().optional(),
        query_as_sent: z.string().nullable().optional(),
      }),
    }),
  routes: [{ method: "GET", path: "/api/executions/{exec_id}/search-record" }],
  example: { exec_id: 1 },
  budget: 1_000,
});
