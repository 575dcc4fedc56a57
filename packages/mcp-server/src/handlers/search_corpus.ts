import { FEATURE_SINCE } from "@resmon/mcp-contract";
import { requireKnownSources } from "../backend/this-resmon.js";
import type { Handler } from "../context.js";
import { answerOf } from "../shape/answer.js";
import { paper, rankedPaper } from "../shape/paper.js";
import { passReported } from "../shape/reported.js";
import { requireArray, requireRecord } from "../shape/values.js";

const DECLINED_FALLBACK = "resmon did not rank these results by meaning; they are newest first.";

export const search_corpus: Handler<"search_corpus"> = async (args, { backend }) => {
  const { query, limit, mode: requested, cursor, sources, date_from, date_to } = args;
  await requireKnownSources(backend, "sources", sources);
  // A resmon before 2.3 declares no sort (it would ignore one): it only answers newest first.
  const resmon = await backend.resmon();
  const ranks = resmon.has("similarity_search");
  // Only what the caller gave; never the route's `include` field.
  const body = {
    query,
    limit,
    ...(ranks ? { sort: requested === "semantic" ? "similarity" : "newest" } : {}),
    ...(cursor !== undefined ? { cursor } : {}),
    ...(sources !== undefined && sources.length > 0 ? { sources } : {}),
    ...(date_from !== undefined ? { date_from } : {}),
    ...(date_to !== undefined ? { date_to } : {}),
  };

  const data = requireRecord(
    await backend.call((c) => c.POST("/api/explorer/search", { body })),
    "a search reply",
  );
  const rows = requireArray(data.results, "the search results");
  const served = data.sort === "similarity" ? "semantic" : "keyword";
  const answer: Record<string, unknown> = {
    mode: served,
    papers: served === "semantic" ? rows.map(rankedPaper) : rows.map(paper),
    count: rows.length,
    next_cursor: typeof data.next_cursor === "string" ? data.next_cursor : null,
  };
  // Whether more follow, and how many match, only as resmon said: absent is not false or null.
  passReported(answer, data, ["has_more", "total", "total_is_capped"]);
  if (served === "semantic") {
    if (typeof data.ranked_count === "number") answer.ranked_count = data.ranked_count;
    if (typeof data.unranked_count === "number") answer.unranked_count = data.unranked_count;
    answer.model = typeof data.model === "string" ? data.model : null;
  } else if (requested === "semantic") {
    answer.mode_unavailable = !ranks
      ? `resmon ${resmon.version ?? "(no version reported)"} cannot rank by meaning (that needs resmon ${FEATURE_SINCE.similarity_search} or newer); these are its keyword results.`
      : typeof data.similarity_unavailable === "string" && data.similarity_unavailable
        ? data.similarity_unavailable
        : DECLINED_FALLBACK;
  }
  return answerOf("search_corpus", answer);
};
