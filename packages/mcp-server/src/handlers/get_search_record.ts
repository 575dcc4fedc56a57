import type { Handler } from "../context.js";
import { answerOf } from "../shape/answer.js";
import { asRecord } from "../shape/values.js";

/** The PRISMA-shaped record, as resmon wrote it. */
export const get_search_record: Handler<"get_search_record"> = async (args, { backend }) => {
  const execId = args.exec_id;
  return answerOf(
    "get_search_record",
    asRecord(
      await backend.call((c) =>
        c.GET("/api/executions/{exec_id}/search-record", { params: { path: { exec_id: execId } } }),
      ),
    ),
  );
};
