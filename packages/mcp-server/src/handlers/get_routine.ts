import type { Handler } from "../context.js";
import { ToolError } from "../errors.js";
import { answerOf, notCarried } from "../shape/answer.js";
import { markNotReported } from "../shape/reported.js";
import { coverageAudit, deliverySummary, missedFiresProblem, routineRecord } from "../shape/routine.js";

/** A side route that cannot answer leaves its key off; only a vanished backend fails the call. */
async function optional<T>(
  read: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; why: string }> {
  try {
    return { ok: true, value: await read() };
  } catch (err) {
    if (err instanceof ToolError && err.code !== "backend_unavailable")
      return { ok: false, why: err.message };
    throw err;
  }
}

export const get_routine: Handler<"get_routine"> = async (args, { backend }) => {
  const id = args.routine_id;
  const path = { routine_id: id };
  const row = await backend.call((c) => c.GET("/api/routines/{routine_id}", { params: { path } }));
  const served = (await backend.resmon()).has("missed_fires");
  const [deliveries, coverage] = await Promise.all([
    optional(() => backend.call((c) => c.GET("/api/routines/{routine_id}/deliveries", { params: { path } }))),
    optional(() => backend.call((c) => c.GET("/api/routines/{routine_id}/coverage", { params: { path } }))),
  ]);
  const answer = routineRecord(row, served);
  if (coverage.ok) answer.coverage = coverageAudit(coverage.value);
  else answer.coverage_unavailable = coverage.why;
  // Absent, not zeroed, when the deliveries route cannot answer or its summary lacks the counts.
  const delivery = deliveries.ok ? deliverySummary(deliveries.value) : null;
  if (delivery !== null) answer.delivery = delivery;
  else markNotReported(answer, ["delivery"]);
  const checked = answerOf("get_routine", answer);
  // After the output schema, so a row missing more than this is refused by its first field, as before.
  const problem = missedFiresProblem(row, served);
  if (problem !== null) throw notCarried("get_routine", "missed_fires", problem);
  return checked;
};
