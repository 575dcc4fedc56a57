import { z } from "zod";
import { readHints, readTool } from "../define.js";
import { str } from "../schema-parts.js";

export const missedFiresShape = () =>
  z.looseObject({ count: z.int(), last_due_at_utc: z.string().nullable() });

export const list_routines = readTool({
  name: "list_routines",
  title: "List routines",
  description:
    "The user's saved routines (scheduled searches): id, name, schedule, sources, keywords, last run, active, and missed_fires (fires that came due while resmon was closed).",
  kind: "read",
  requiresConfirmation: false,
  annotations: readHints(false),
  input: z.strictObject({
    active_only: z.boolean().optional().describe("Only routines on the schedule."),
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
});
