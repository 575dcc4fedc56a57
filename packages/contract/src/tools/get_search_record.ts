import { z } from "zod";
import { readHints, readTool } from "../define.js";
import { idArg } from "../schema-parts.js";

export const get_search_record = readTool({
  name: "get_search_record",
  title: "Get a run's search record",
  description:
    "The PRISMA-shaped reproducible record of a run. search.queries_as_sent is what each source's requests carried (null for runs from before resmon kept it); search.query_as_sent is the terms as typed, which no source received verbatim. A source's zero carries its reason; an unexplained zero is not evidence there was nothing to find.",
  kind: "read",
  requiresConfirmation: false,
  annotations: readHints(false),
  input: z.strictObject({ exec_id: idArg("Execution id.") }),
  output: z.looseObject({
    search: z.looseObject({
      queries_as_sent: z.array(z.looseObject({})).nullable().optional(),
      query_as_sent: z.string().nullable().optional(),
    }),
  }),
  routes: [{ method: "GET", path: "/api/executions/{exec_id}/search-record" }],
});
