import type { Handler } from "../context.js";
import { answerOf } from "../shape/answer.js";
import { activeFlag } from "../shape/routine.js";
import { asRecord } from "../shape/values.js";

export const deactivate_routine: Handler<"deactivate_routine"> = async (args, { backend }) => {
  const id = args.routine_id;
  const data = asRecord(
    await backend.call((c) =>
      c.POST("/api/routines/{routine_id}/deactivate", { params: { path: { routine_id: id } } }),
    ),
  );
  // Only the state resmon reported: without it the shape check refuses the answer (upstream_error).
  const active = activeFlag(data.is_active);
  return answerOf("deactivate_routine", {
    id: data.id ?? id,
    ...(active === undefined ? {} : { is_active: active }),
  });
};
