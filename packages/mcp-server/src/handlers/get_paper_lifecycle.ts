import type { Handler } from "../context.js";
import { answerOf } from "../shape/answer.js";
import { asRecord } from "../shape/values.js";

export const get_paper_lifecycle: Handler<"get_paper_lifecycle"> = async (args, { backend }) => {
  const docId = args.doc_id;
  return answerOf(
    "get_paper_lifecycle",
    asRecord(
      await backend.call((c) =>
        c.GET("/api/documents/{doc_id}/lifecycle", { params: { path: { doc_id: docId } } }),
      ),
    ),
  );
};
