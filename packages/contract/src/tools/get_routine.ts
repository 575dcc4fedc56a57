import { z } from "zod";
import { readTool } from "../define.js";
import { idArg, notReportedShape } from "../schema-parts.js";
import { missedFiresShape } from "./list_routines.js";

export const get_routine = readTool({
  name: "get_routine",
  title: "Routine",
  description:
    "A routine: missed fires (2.3+), coverage audit (totals; *_is_lower_bound means 'at least'), delivery (absent, not zero, if unreported).",
  input: () => z.strictObject({ routine_id: idArg() }),
  output: () =>
    z.looseObject({
      id: z.int(),
      name: z.string(),
      sources: z.array(z.string()).optional(),
      // Why `sources` is empty, or names a stored key resmon's dispatcher does not read.
      sources_note: z.string().optional(),
      // resmon 2.3+ (FEATURE_KEYS): an older resmon's answer names it in not_reported instead.
      missed_fires: missedFiresShape().optional(),
      missed_fire_details: z.array(z.looseObject({})).optional(),
      coverage: z.looseObject({}).optional(),
      delivery: z
        .looseObject({
          targets_by_channel: z.record(z.string(), z.int()),
          enabled_target_count: z.int(),
          awaiting_review: z.int(),
          last_state: z.string().nullable(),
        })
        .optional(),
      not_reported: notReportedShape(),
    }),
  routes: [
    { method: "GET", path: "/api/routines/{routine_id}" },
    { method: "GET", path: "/api/routines/{routine_id}/deliveries" },
    { method: "GET", path: "/api/routines/{routine_id}/coverage" },
  ],
  example: { routine_id: 1 },
  budget: 2_900,
});
