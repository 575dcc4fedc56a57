import { z } from "zod";
import { readTool } from "../define.js";
import { str } from "../schema-parts.js";

export const list_sources = readTool({
  name: "list_sources",
  title: "Sources",
  description: "Sources: slug (for sources arguments), coverage, key needed/present (never its value).",
  input: () => z.strictObject({}),
  output: () =>
    z.looseObject({
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
  example: {},
  budget: 850,
});
