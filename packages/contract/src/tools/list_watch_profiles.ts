import { z } from "zod";
import { readTool } from "../define.js";
import { str } from "../schema-parts.js";

export const list_watch_profiles = readTool({
  name: "list_watch_profiles",
  title: "Watch profiles",
  description: "Watched people and groups. Repeat a row's basis_warning when summarizing it.",
  input: () =>
    z.strictObject({
      kind: z.string().min(1).optional().describe("e.g. person, group, institution."),
    }),
  output: () =>
    z.looseObject({
      profiles: z.array(
        z.looseObject({
          id: z.int(),
          kind: z.string(),
          name: str(),
          basis_warning: str(),
        }),
      ),
    }),
  routes: [{ method: "GET", path: "/api/profiles" }],
  example: {},
  budget: 400,
});
