import { z } from "zod";
import { readTool } from "../define.js";
import { EXECUTION_STATUSES, idArg, int, limitArg, offsetArg, str } from "../schema-parts.js";

export const list_executions = readTool({
  name: "list_executions",
  title: "Executions",
  description: "Runs, newest first. interrupted (resmon stopped mid-run) is not failed.",
  input: () =>
    z.strictObject({
      routine_id: idArg().optional(),
      status: z.enum(EXECUTION_STATUSES).optional(),
      limit: limitArg(),
      offset: offsetArg(),
    }),
  output: () =>
    z.looseObject({
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
  example: {},
  // Each run carries resmon's coverage counts (about 13 tokens a run at the default page of 25).
  budget: 2_500,
});
