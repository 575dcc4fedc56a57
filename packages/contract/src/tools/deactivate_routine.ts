import { z } from "zod";
import { writeTool } from "../define.js";
import { idArg } from "../schema-parts.js";

export const deactivate_routine = writeTool({
  name: "deactivate_routine",
  title: "Deactivate routine",
  description: "Take a routine off its schedule; nothing is deleted.",
  idempotent: true,
  openWorld: false,
  input: () => z.strictObject({ routine_id: idArg() }),
  output: () => z.looseObject({ id: z.int(), is_active: z.literal(false) }),
  routes: [{ method: "POST", path: "/api/routines/{routine_id}/deactivate" }],
  example: { routine_id: 3 },
  budget: 20,
});
