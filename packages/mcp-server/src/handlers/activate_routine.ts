import type { Handler } from "../context.js";
import { reqInt } from "../shape/args.js";
import { asRecord } from "../shape/values.js";

export const activate_routine: Handler = async (args, { backend }) => {
  const id = reqInt(args, "routine_id");
  const data = asRecord(
    await backend.call((c) =>
      c.POST("/api/routines/{routine_id}/activate", { params: { path: { routine_id: id } } }),
    ),
  );
  return { id: data.id ?? id, is_active: data.is_active === true || data.is_active === 1 };
};
