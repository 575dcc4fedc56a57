import { z } from "zod";
import { readHints, readTool } from "../define.js";
import { str } from "../schema-parts.js";

export const list_watch_profiles = readTool({
  name: "list_watch_profiles",
  title: "List watch profiles",
  description:
    "The people, groups and institutions the user watches: id, kind, name, aliases, identifier schemes, ORCID, affiliations. basis_warning on a row says how weak its matches can be (e.g. name-only): repeat it whenever you summarize that profile.",
  kind: "read",
  requiresConfirmation: false,
  annotations: readHints(false),
  input: z.strictObject({
    kind: z.string().min(1).optional().describe("Only this kind, e.g. person, group, institution."),
  }),
  output: z.looseObject({
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
});
