import { z } from "zod";
import { readHints, readTool } from "../define.js";
import { EXECUTION_STATUSES, idArg, int, limitArg, offsetArg, str } from "../schema-parts.js";

export const list_executions = readTool({
  name: "list_executions",
  title: "List executions",
  description:
    "Runs, newest first: id, type, status, started, finished, result count, interrupted_reason, restarted_from. interrupted means resmon stopped before the run finished (app closed, power cut); it is not failed, so never report it as a failed search.",
  kind: "read",
  requiresConfirmation: false,
  annotations: readHints(false),
  input: z.strictObject({
    routine_id: idArg("Only runs of this routine.").optional(),
    status: z.enum(EXECUTION_STATUSES).optional().describe("Only runs with this status."),
    limit: limitArg(),
    offset: offsetArg(),
  }),
  output: z.looseObject({
    executions: z.array(
      z.looseObject({
        id: z.int(),
        type: str(),
        status: z.string(),
        started: str(),
        finished: str(),
        result_count: int(),
        interrupted_reason: z.string().nullable(),
        restarted_from: z.int().nullable(),
      }),
    ),
  }),
  routes: [{ method: "GET", path: "/api/executions" }],
});
