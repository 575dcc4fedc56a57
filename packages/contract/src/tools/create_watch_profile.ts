import { z } from "zod";
import { writeHints, writeTool } from "../define.js";

const words = (what: string) => z.array(z.string().min(1)).optional().describe(what);

export const create_watch_profile = writeTool({
  name: "create_watch_profile",
  title: "Create a watch profile",
  description:
    "Watch a person's papers. With neither an ORCID nor an affiliation every match is name-only: the answer then carries basis_warning at the top - repeat it to the user.",
  kind: "write",
  requiresConfirmation: true,
  annotations: writeHints(false, false),
  input: z.strictObject({
    name: z.string().min(1).describe("The person's name as it appears on papers."),
    orcid: z.string().min(1).optional().describe("ORCID iD, e.g. 0000-0002-1825-0097."),
    orcid_cited: z.string().min(1).optional().describe("Where that ORCID was found (URL or citation)."),
    aliases: words("Other spellings of the name."),
    affiliations: words("Institutions."),
    field_hints: words("Research fields."),
  }),
  output: z.looseObject({
    basis_warning: z.string().optional(),
    profile: z.looseObject({ id: z.int(), kind: z.string() }),
    detail: z.looseObject({}).optional(),
  }),
  routes: [{ method: "POST", path: "/api/profiles" }],
});
