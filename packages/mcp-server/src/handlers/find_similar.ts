import type { Handler } from "../context.js";
import { answerOf } from "../shape/answer.js";
import { rankedPaper } from "../shape/paper.js";
import { passReported } from "../shape/reported.js";
import { requireArray, requireRecord } from "../shape/values.js";

const NO_REASON =
  "resmon returned no neighbours and gave no reason, so this answer cannot say whether nothing is similar or the comparison could not run.";

export const find_similar: Handler<"find_similar"> = async (args, { backend }) => {
  const docId = args.doc_id;
  const data = requireRecord(
    await backend.call((c) =>
      c.GET("/api/documents/{document_id}/similar", {
        params: { path: { document_id: docId }, query: { k: args.limit } },
      }),
    ),
    "a neighbours reply",
  );
  const papers = requireArray(data.neighbours, "the neighbours").map(rankedPaper);
  const answer: Record<string, unknown> = { doc_id: docId };
  passReported(answer, data, ["model"]);
  answer.papers = papers;
  answer.count = papers.length;
  // An empty list always says why: "not embedded", "nothing else is" and "cannot load" differ.
  if (typeof data.reason === "string" && data.reason) answer.reason = data.reason;
  else if (papers.length === 0) answer.reason = NO_REASON;
  return answerOf("find_similar", answer);
};
