import type { Handler } from "../context.js";
import { ToolError } from "../errors.js";
import { asRecord } from "../shape/values.js";
import { RUN_STARTED } from "./run_sweep.js";

const QUEUED =
  "resmon is already running as many runs as it allows, so this run is queued. It starts on its own when a slot frees; there is nothing more to do, and no execution exists yet.";

/**
 * Which conflict a 409 was. resmon says so in headers; when those did not reach us, its sentence
 * ("Routine 3 is already running as execution 12.") is read instead, and nothing is guessed beyond it.
 */
function classifyConflict(err: ToolError): ToolError {
  if (typeof err.detail.conflict === "string") return err;
  const text = err.message;
  if (/already running/i.test(text)) {
    const id = /execution\D{0,3}(\d+)/i.exec(text)?.[1];
    return new ToolError("conflict", text, {
      ...err.detail,
      conflict: "routine_already_running",
      ...(id ? { execution_id: Number(id) } : {}),
    });
  }
  if (/queue/i.test(text) && /full/i.test(text)) {
    return new ToolError("conflict", text, { ...err.detail, conflict: "queue_full" });
  }
  return err;
}

export const run_routine: Handler<"run_routine"> = async (args, { backend }) => {
  const id = args.routine_id;
  let data: Record<string, unknown>;
  try {
    data = asRecord(
      await backend.call((c) =>
        c.POST("/api/routines/{routine_id}/run", { params: { path: { routine_id: id } } }),
      ),
    );
  } catch (err) {
    if (err instanceof ToolError && err.code === "conflict") throw classifyConflict(err);
    throw err;
  }
  if (data.queued === true) {
    // Read queued before execution_id: a queued run has no execution yet.
    const queued: Record<string, unknown> = {
      routine_id: id,
      queued: true,
      execution_id: null,
      detail: typeof data.detail === "string" ? data.detail : QUEUED,
    };
    if (typeof data.queue_position === "number") queued.queue_position = data.queue_position;
    if (typeof data.was_inactive === "boolean") queued.was_inactive = data.was_inactive;
    return queued;
  }
  const answer: Record<string, unknown> = {
    routine_id: id,
    queued: false,
    execution_id: data.execution_id ?? null,
    detail: typeof data.detail === "string" ? `${data.detail} ${RUN_STARTED}` : RUN_STARTED,
  };
  if (typeof data.was_inactive === "boolean") answer.was_inactive = data.was_inactive;
  return answer;
};
