import type { Handler } from "../context.js";
import { ToolError } from "../errors.js";
import { answerOf } from "../shape/answer.js";
import { pageOf } from "../shape/paging.js";
import { paper } from "../shape/paper.js";

/** The ID-bearing JSON reference export, paged here; each id works as explain_match's doc_id. */
export const get_execution_results: Handler<"get_execution_results"> = async (args, { backend }) => {
  const execId = args.exec_id;
  let data: unknown = await backend.call((c) =>
    c.GET("/api/executions/{exec_id}/references", {
      params: { path: { exec_id: execId }, query: { format: "json", include_ids: true } },
    }),
  );
  // Text is parsed as JSON or refused: an empty reply is not an empty export (`[]` is resmon's "no papers").
  if (typeof data === "string") {
    try {
      data = JSON.parse(data);
    } catch {
      data = undefined;
    }
  }
  if (!Array.isArray(data)) {
    throw new ToolError(
      "upstream_error",
      "resmon returned a reference export this server could not read.",
      {},
    );
  }
  const page = pageOf(data, args.offset, args.limit);
  return answerOf("get_execution_results", {
    exec_id: execId,
    papers: page.items.map(paper),
    count: page.items.length,
    total: page.total,
    offset: page.offset,
    limit: page.limit,
    has_more: page.has_more,
    next_offset: page.next_offset,
  });
};
