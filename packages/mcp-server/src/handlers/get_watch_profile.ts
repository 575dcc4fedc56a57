import type { Handler } from "../context.js";
import { WHAT_A_BASIS_MEANS } from "../shape/profile.js";
import { asRecord } from "../shape/values.js";

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
  return {
    ...profile,
    basis_warning: profile.basis_warning ?? null,
    // Only a total resmon reported; without one the answer fails its shape check as upstream_error.
    ...(typeof matches.total === "number" ? { match_total: matches.total } : {}),
    by_basis: asRecord(matches.by_basis),
    what_a_basis_means: WHAT_A_BASIS_MEANS,
  };
};
