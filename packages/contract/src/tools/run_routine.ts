import { z } from "zod";
import { writeTool } from "../define.js";
import { idArg, notReportedShape } from "../schema-parts.js";

export const run_routine = writeTool({
  name: "run_routine",
  title: "Run routine now",
  description:
    "Run a routine once now, even if inactive. Read queued before execution_id: queued means it waits (queue_position), execution_id null. Else poll get_execution; interrupted is not failed.",
  idempotent: false,
  openWorld: true,
  input: () => z.strictObject({ routine_id: idArg() }),
  output: () =>
    z.looseObject({
      execution_id: z.int().nullable(),
      queued: z.boolean().optional(),
      queue_position: z.int().optional(),
      detail: z.string().optional(),
      missed_fires_marked_ran_late: z.int().optional(),
      not_reported: notReportedShape(),
    }),
  routes: [{ method: "POST", path: "/api/routines/{routine_id}/run" }],
  example: { routine_id: 2 },
  budget: 100,
});
