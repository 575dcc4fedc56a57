import { z } from "zod";
import { readTool } from "../define.js";
import { notReportedShape, str } from "../schema-parts.js";

export const missedFiresShape = () =>
  z.looseObject({ count: z.int(), last_due_at_utc: z.string().nullable() });

export const list_routines = readTool({
  name: "list_routines",
  title: "Routines",
  // missed_fires is resmon 2.3+; an older resmon's rows name it in not_reported (the model-read budget is tight).
  description: "Scheduled searches, missed_fires (due while resmon was closed; 2.3+, else not_reported).",
  input: () =>
    z.strictObject({
      active_only: z.boolean().optional(),
    }),
  output: () =>
    z.looseObject({
      routines: z.array(
        z.looseObject({
          id: z.int(),
          name: z.string(),
          schedule: str(),
          sources: z.array(z.string()).optional(),
          // Why `sources` is empty, or names a stored key resmon's dispatcher does not read.
          sources_note: z.string().optional(),
          keywords: z.unknown().optional(),
          last_run: str(),
          active: z.boolean(),
          // resmon 2.3+ (FEATURE_KEYS): an older resmon's row names it in not_reported instead.
          missed_fires: missedFiresShape().optional(),
          not_reported: notReportedShape(),
        }),
      ),
    }),
  routes: [{ method: "GET", path: "/api/routines" }],
  example: {},
  budget: 500,
});
