import { z } from "zod";
import { writeTool } from "../define.js";
import { idArg } from "../schema-parts.js";

export const activate_routine = writeTool({
  name: "activate_routine",
  title: "Activate routine",
  description: "Put a routine on its schedule: it runs by itself.",
  // The call only changes a flag locally; the runs it schedules are separate events.
  idempotent: true,
  openWorld: false,
  input: () => z.strictObject({ routine_id: idArg() }),
  output: () => z.looseObject({ id: z.int(), is_active: z.literal(true) }),
  routes: [{ method: "POST", path: "/api/routines/{routine_id}/activate" }],
  example: { routine_id: 3 },
  budget: 20,
});
