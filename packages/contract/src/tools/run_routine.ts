import { z } from "zod";
import { writeHints, writeTool } from "../define.js";
import { idArg, notReportedShape } from "../schema-parts.js";

export const run_routine = writeTool({
  name: "run_routine",
  title: "Run a routine now",
  description:
    "Run a saved routine once now, even if inactive; recorded in the run history. Read queued before execution_id: queued true means resmon is at its run limit, execution_id is null, queue_position says where it waits, and it starts on its own - nothing to poll yet. Otherwise poll get_execution(execution_id); the run may end interrupted, which is not failed. conflict if it is already running or the queue is full.",
  kind: "write",
  requiresConfirmation: true,
  annotations: writeHints(false, true),
  input: z.strictObject({ routine_id: idArg("Routine id.") }),
  output: z.looseObject({
    execution_id: z.int().nullable(),
    queued: z.boolean().optional(),
    queue_position: z.int().optional(),
    detail: z.string().optional(),
    missed_fires_marked_ran_late: z.int().optional(),
    not_reported: notReportedShape(),
  }),
  routes: [{ method: "POST", path: "/api/routines/{routine_id}/run" }],
});
