import type { Handler } from "../context.js";
import { asRecord } from "../shape/values.js";

export const get_paper_lifecycle: Handler<"get_paper_lifecycle"> = async (args, { backend }) => {
  const docId = args.doc_id;
  return asRecord(
    await backend.call((c) =>
      c.GET("/api/documents/{doc_id}/lifecycle", { params: { path: { doc_id: docId } } }),
    ),
  );
};
