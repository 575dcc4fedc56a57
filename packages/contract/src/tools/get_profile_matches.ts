import { z } from "zod";
import { readTool } from "../define.js";
import { idArg, limitArg, offsetArg } from "../schema-parts.js";

export const get_profile_matches = readTool({
  name: "get_profile_matches",
  title: "Profile matches",
  description:
    "A profile's matches, each with basis, matched_author, evidence. name_only means only the name matched: never call it that person's paper or drop the basis.",
  input: () =>
    z.strictObject({
      profile_id: idArg(),
      limit: limitArg(),
      offset: offsetArg(),
    }),
  output: () =>
    z.looseObject({
      matches: z.array(
        z.looseObject({
          basis: z.string(),
          matched_author: z.string().nullable(),
          evidence: z.unknown(),
        }),
      ),
      total: z.int().optional(),
      by_basis: z.record(z.string(), z.int()),
      what_a_basis_means: z.record(z.string(), z.string()),
    }),
  routes: [{ method: "GET", path: "/api/profiles/{profile_id}/matches" }],
  example: { profile_id: 1 },
  budget: 3_200,
});
