import { z } from "zod";
import { readHints, readTool } from "../define.js";
import { idArg } from "../schema-parts.js";
import { missedFiresShape } from "./list_routines.js";

export const get_routine = readTool({
  name: "get_routine",
  title: "Get a routine",
  description:
    "One routine's full record: missed_fires and missed_fire_details, a coverage audit of results against its intent (totals, not page lengths; missed_in_corpus_count_is_lower_bound means 'at least'), and a delivery summary (destinations per channel, awaiting_review, the last delivery's state). No addresses, paths or URLs. delivery is absent when resmon could not report it - not zero destinations.",
  kind: "read",
  requiresConfirmation: false,
  annotations: readHints(false),
  input: z.strictObject({ routine_id: idArg("Routine id.") }),
  output: z.looseObject({
    id: z.int(),
    name: z.string(),
    missed_fires: missedFiresShape(),
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
  }),
  routes: [
    { method: "GET", path: "/api/routines/{routine_id}" },
    { method: "GET", path: "/api/routines/{routine_id}/deliveries" },
    { method: "GET", path: "/api/routines/{routine_id}/coverage" },
  ],
});
