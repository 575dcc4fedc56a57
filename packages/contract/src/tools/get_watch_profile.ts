import { z } from "zod";
import { readTool } from "../define.js";
import { idArg, str } from "../schema-parts.js";

export const get_watch_profile = readTool({
  name: "get_watch_profile",
  title: "Watch profile",
  description: "A watch profile, match counts per basis. name_only is a string match, not an identity.",
  input: () => z.strictObject({ profile_id: idArg() }),
  output: () =>
    z.looseObject({
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
  example: { profile_id: 1 },
  budget: 350,
});
