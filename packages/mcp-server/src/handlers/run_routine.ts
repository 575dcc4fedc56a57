import type { ToolResult } from "@resmon/mcp-contract";
import type { Handler } from "../context.js";
import { ToolError } from "../errors.js";
import { answerOf } from "../shape/answer.js";
import { markNotReported } from "../shape/reported.js";
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

const NO_EXECUTION_ID =
  "resmon admitted the run, but its reply did not say the execution's id (or whether it was queued). The run exists: do not call run_routine again, or a second run starts. list_executions with this routine_id shows it.";

/** An execution id resmon reported as an integer; anything else is not an id this server can pass on. */
function reportedId(value: unknown): number | undefined {
  return Number.isSafeInteger(value) ? (value as number) : undefined;
}

/** resmon's own extras on an admitted run, passed on only when it sent them; the answer, checked. */
function withReported(
  answer: Record<string, unknown>,
  data: Record<string, unknown>,
): ToolResult<"run_routine"> {
  if (typeof data.was_inactive === "boolean") answer.was_inactive = data.was_inactive;
  if (Number.isSafeInteger(data.missed_fires_marked_ran_late)) {
    answer.missed_fires_marked_ran_late = data.missed_fires_marked_ran_late;
  }
  return answerOf("run_routine", answer);
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
    return withReported(queued, data);
  }
  const executionId = reportedId(data.execution_id);
  if (executionId === undefined) {
    // A 2xx is an admitted run: calling it a failure would invite a retry and a second run.
    const answer: Record<string, unknown> = { routine_id: id, execution_id: null, detail: NO_EXECUTION_ID };
    markNotReported(answer, ["execution_id", "queued"]);
    return withReported(answer, data);
  }
  return withReported(
    {
      routine_id: id,
      queued: false,
      execution_id: executionId,
      detail: typeof data.detail === "string" ? `${data.detail} ${RUN_STARTED}` : RUN_STARTED,
    },
    data,
  );
};
