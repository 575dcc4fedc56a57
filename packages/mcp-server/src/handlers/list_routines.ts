import type { Handler } from "../context.js";
import { answerOf } from "../shape/answer.js";
import { routineRow } from "../shape/routine.js";
import { requireArray } from "../shape/values.js";

export const list_routines: Handler<"list_routines"> = async (args, { backend }) => {
  const rows = requireArray(await backend.call((c) => c.GET("/api/routines")), "the routines").map(
    routineRow,
  );
  const routines = args.active_only === true ? rows.filter((r) => r.active === true) : rows;
  return answerOf("list_routines", { routines, count: routines.length });
};
