import { z } from "zod";
import { readHints, readTool } from "../define.js";
import { idArg, str } from "../schema-parts.js";

export const get_watch_profile = readTool({
  name: "get_watch_profile",
  title: "Get a watch profile",
  description:
    "One watch profile in full, plus its match total and a count per basis (e.g. identifier, name_only). A name_only match is a string match, not an identity.",
  kind: "read",
  requiresConfirmation: false,
  annotations: readHints(false),
  input: z.strictObject({ profile_id: idArg("Watch profile id.") }),
  output: z.looseObject({
    id: z.int(),
    kind: z.string(),
    basis_warning: str(),
    match_total: z.int(),
    by_basis: z.record(z.string(), z.int()),
  }),
  routes: [
    { method: "GET", path: "/api/profiles/{profile_id}" },
    { method: "GET", path: "/api/profiles/{profile_id}/matches" },
  ],
});
