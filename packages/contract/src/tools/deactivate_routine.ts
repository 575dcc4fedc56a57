import { z } from "zod";
import { writeHints, writeTool } from "../define.js";
import { idArg } from "../schema-parts.js";

export const deactivate_routine = writeTool({
  name: "deactivate_routine",
  title: "Deactivate a routine",
  description: "Take a routine off its schedule. Nothing is deleted; run_routine can still run it by hand.",
  kind: "write",
  requiresConfirmation: true,
  annotations: writeHints(true, false),
  input: z.strictObject({ routine_id: idArg("Routine id.") }),
  output: z.looseObject({ id: z.int(), is_active: z.literal(false) }),
  routes: [{ method: "POST", path: "/api/routines/{routine_id}/deactivate" }],
});
