import { z } from "zod";
import { writeTool } from "../define.js";

const words = () => z.array(z.string().min(1)).optional();

export const create_watch_profile = writeTool({
  name: "create_watch_profile",
  title: "Create watch profile",
  description:
    "Watch a person's papers. Without ORCID or affiliation every match is name-only and basis_warning says so: repeat it.",
  idempotent: false,
  openWorld: false,
  input: () =>
    z.strictObject({
      name: z.string().min(1),
      orcid: z.string().min(1).optional(),
      orcid_cited: z.string().min(1).optional().describe("Where the ORCID was found."),
      aliases: words(),
      affiliations: words(),
      field_hints: words(),
    }),
  output: () =>
    z.looseObject({
      basis_warning: z.string().optional(),
      profile: z.looseObject({ id: z.int(), kind: z.string() }),
      detail: z.looseObject({}).optional(),
    }),
  routes: [{ method: "POST", path: "/api/profiles" }],
  example: { name: "Bench Person" },
  budget: 300,
});
