import type { Handler } from "../context.js";
import { ToolError } from "../errors.js";
import { reqInt } from "../shape/args.js";
import { asRecord } from "../shape/values.js";
import { RUN_STARTED } from "./run_sweep.js";

const QUEUED =
  "resmon is already running as many runs as it allows, so this run is queued. It starts on its own when a slot frees; there is nothing more to do, and no execution exists yet.";

export const run_routine: Handler = async (args, { backend }) => {
  const id = reqInt(args, "routine_id");
  let data: Record<string, unknown>;
  try {
    data = asRecord(
      await backend.call((c) =>
        c.POST("/api/routines/{routine_id}/run", { params: { path: { routine_id: id } } }),
      ),
    );
  } catch (err) {
    // Already running: the conflict carries that run's execution id. Queue full: a plain conflict.
    if (err instanceof ToolError && err.code === "conflict" && err.detail.conflict === undefined) {
      const running = err.detail.execution_id;
      if (typeof running === "number") {
        throw new ToolError("conflict", err.message, { ...err.detail, conflict: "routine_already_running" });
      }
    }
    throw err;
  }
  if (data.queued === true) {
    const queued: Record<string, unknown> = {
      routine_id: id,
      queued: true,
      execution_id: null,
      detail: typeof data.detail === "string" ? data.detail : QUEUED,
    };
    if (typeof data.queue_position === "number") queued.queue_position = data.queue_position;
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
