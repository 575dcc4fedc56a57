import { z } from "zod";
import { readTool } from "../define.js";
import { str } from "../schema-parts.js";

export const missedFiresShape = () =>
  z.looseObject({ count: z.int(), last_due_at_utc: z.string().nullable() });

export const list_routines = readTool({
  name: "list_routines",
  title: "Routines",
  description: "Scheduled searches with missed_fires (due while resmon was closed).",
  input: z.strictObject({
    active_only: z.boolean().optional(),
  }),
  output: z.looseObject({
    routines: z.array(
      z.looseObject({
        id: z.int(),
        name: z.string(),
        schedule: str(),
        sources: z.array(z.string()).optional(),
        keywords: z.unknown().optional(),
        last_run: str(),
        active: z.boolean(),
        missed_fires: missedFiresShape(),
      }),
    ),
  }),
  routes: [{ method: "GET", path: "/api/routines" }],
  example: {},
  budget: 500,
});
