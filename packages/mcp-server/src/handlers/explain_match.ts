import type { Handler } from "../context.js";
import { answerOf } from "../shape/answer.js";
import { asRecord } from "../shape/values.js";

/** Passed through untouched: resmon's caveats (what it cannot see) are part of the answer. */
export const explain_match: Handler<"explain_match"> = async (args, { backend }) => {
  const docId = args.doc_id;
  return answerOf(
    "explain_match",
    asRecord(
      await backend.call((c) =>
        c.GET("/api/documents/{doc_id}/why", { params: { path: { doc_id: docId } } }),
      ),
    ),
  );
};
