import type { Handler } from "../context.js";
import { answerOf } from "../shape/answer.js";
import { WHAT_A_BASIS_MEANS } from "../shape/profile.js";
import { asRecord, isRecord } from "../shape/values.js";

/** The full profile, plus its match total and per-basis count (one row asked, only for the totals). */
export const get_watch_profile: Handler<"get_watch_profile"> = async (args, { backend }) => {
  const id = args.profile_id;
  const path = { profile_id: id };
  const profile = asRecord(
    await backend.call((c) => c.GET("/api/profiles/{profile_id}", { params: { path } })),
  );
  const matches = asRecord(
    await backend.call((c) =>
      c.GET("/api/profiles/{profile_id}/matches", { params: { path, query: { limit: 1 } } }),
    ),
  );
  return answerOf("get_watch_profile", {
    ...profile,
    basis_warning: profile.basis_warning ?? null,
    // Only a total and per-basis counts resmon reported; without them the answer fails its shape
    // check as upstream_error, never an invented 0 or {}.
    ...(typeof matches.total === "number" ? { match_total: matches.total } : {}),
    ...(isRecord(matches.by_basis) ? { by_basis: matches.by_basis } : {}),
    what_a_basis_means: WHAT_A_BASIS_MEANS,
  });
};
