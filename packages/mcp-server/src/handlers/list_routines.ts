import type { Handler } from "../context.js";
import { answerOf, notCarried } from "../shape/answer.js";
import { missedFiresProblem, routineRow } from "../shape/routine.js";
import { requireArray } from "../shape/values.js";

export const list_routines: Handler<"list_routines"> = async (args, { backend }) => {
  const stored = requireArray(await backend.call((c) => c.GET("/api/routines")), "the routines");
  const served = (await backend.resmon()).has("missed_fires");
  const rows = stored.map((r) => ({ stored: r, row: routineRow(r, served) }));
  const kept = args.active_only === true ? rows.filter((r) => r.row.active === true) : rows;
  const routines = kept.map((r) => r.row);
  const checked = answerOf("list_routines", { routines, count: routines.length });
  // The rows answered, after the output schema (a row missing more is refused by its first field).
  for (const [i, { stored: r }] of kept.entries()) {
    const problem = missedFiresProblem(r, served);
    if (problem !== null) throw notCarried("list_routines", `routines.${i}.missed_fires`, problem);
  }
  return checked;
};
