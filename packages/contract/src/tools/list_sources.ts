import { z } from "zod";
import { readHints, readTool } from "../define.js";
import { str } from "../schema-parts.js";

export const list_sources = readTool({
  name: "list_sources",
  title: "List sources",
  description:
    "The scholarly sources resmon can search: slug (use it in sources arguments), name, coverage, whether an API key is required and whether one is present. Names the key's alias and its presence (present/absent/unreadable), never a value.",
  kind: "read",
  requiresConfirmation: false,
  annotations: readHints(false),
  input: z.strictObject({}),
  output: z.looseObject({
    sources: z.array(
      z.looseObject({
        slug: z.string(),
        name: z.string(),
        coverage: str(),
        key_required: z.boolean(),
        credential_alias: str(),
        credential_status: str(),
      }),
    ),
  }),
  routes: [
    { method: "GET", path: "/api/repositories/catalog" },
    { method: "GET", path: "/api/credentials" },
  ],
});
