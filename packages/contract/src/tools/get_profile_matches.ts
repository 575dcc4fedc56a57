import { z } from "zod";
import { readHints, readTool } from "../define.js";
import { idArg, limitArg, offsetArg } from "../schema-parts.js";

export const get_profile_matches = readTool({
  name: "get_profile_matches",
  title: "Get a profile's matches",
  description:
    "Papers matched to a watch profile, each with basis, matched_author and evidence, plus by_basis and a what_a_basis_means glossary. A name_only match says only that the name appears: never present it as that person's paper, and never drop the basis when you repeat a match.",
  kind: "read",
  requiresConfirmation: false,
  annotations: readHints(false),
  input: z.strictObject({
    profile_id: idArg("Watch profile id."),
    limit: limitArg(),
    offset: offsetArg(),
  }),
  output: z.looseObject({
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
});
