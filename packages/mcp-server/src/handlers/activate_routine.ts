import type { Handler } from "../context.js";
import { asRecord } from "../shape/values.js";

export const activate_routine: Handler<"activate_routine"> = async (args, { backend }) => {
  const id = args.routine_id;
  const data = asRecord(
    await backend.call((c) =>
      c.POST("/api/routines/{routine_id}/activate", { params: { path: { routine_id: id } } }),
    ),
  );
  return { id: data.id ?? id, is_active: data.is_active === true || data.is_active === 1 };
};
