import { z } from "zod";
import { writeHints, writeTool } from "../define.js";
import { idArg } from "../schema-parts.js";

export const activate_routine = writeTool({
  name: "activate_routine",
  title: "Activate a routine",
  description: "Put a routine on its schedule on the user's machine, so it runs by itself.",
  kind: "write",
  requiresConfirmation: true,
  // The call only changes a flag locally; the runs it schedules are separate events.
  annotations: writeHints(true, false),
  input: z.strictObject({ routine_id: idArg("Routine id.") }),
  output: z.looseObject({ id: z.int(), is_active: z.literal(true) }),
  routes: [{ method: "POST", path: "/api/routines/{routine_id}/activate" }],
});
