import type { Handler } from "../context.js";
import { answerOf } from "../shape/answer.js";
import { matchRow, WHAT_A_BASIS_MEANS } from "../shape/profile.js";
import { markNotReported } from "../shape/reported.js";
import { isRecord, numOrNull, requireArray, requireRecord } from "../shape/values.js";

export const get_profile_matches: Handler<"get_profile_matches"> = async (args, { backend }) => {
  const id = args.profile_id;
  const limit = args.limit;
  const offset = args.offset;
  const body = requireRecord(
    await backend.call((c) =>
      c.GET("/api/profiles/{profile_id}/matches", {
        params: { path: { profile_id: id }, query: { limit, offset } },
      }),
    ),
    "a matches reply",
  );
  const matches = requireArray(body.matches, "the matches").map(matchRow);
  const total = numOrNull(body.total);
  const end = offset + matches.length;
  const hasMore = total !== null ? end < total : matches.length === limit;
  const answer: Record<string, unknown> = {
    profile_id: id,
    matches,
    count: matches.length,
    // A total resmon did not report is left off, not invented.
    ...(total !== null ? { total } : {}),
    offset,
    limit,
    has_more: hasMore,
    next_offset: hasMore ? end : null,
    // Counts resmon did not send are not {}: the shape check refuses the answer (upstream_error).
    ...(isRecord(body.by_basis) ? { by_basis: body.by_basis } : {}),
    what_a_basis_means: WHAT_A_BASIS_MEANS,
  };
  // Without resmon's total, has_more is read off a full page: the answer says the total is unknown.
  if (total === null) markNotReported(answer, ["total"]);
  return answerOf("get_profile_matches", answer);
};
