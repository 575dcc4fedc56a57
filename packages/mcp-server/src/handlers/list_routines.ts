import type { Handler } from "../context.js";
import { optBool } from "../shape/args.js";
import { routineRow } from "../shape/routine.js";
import { asArray } from "../shape/values.js";

export const list_routines: Handler = async (args, { backend }) => {
  const rows = asArray(await backend.call((c) => c.GET("/api/routines"))).map(routineRow);
  const routines = optBool(args, "active_only") === true ? rows.filter((r) => r.active === true) : rows;
  return { routines, count: routines.length };
};
