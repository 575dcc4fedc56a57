import type { Handler } from "../context.js";
import { answerOf } from "../shape/answer.js";
import { profileRow } from "../shape/profile.js";
import { asRecord, requireArray } from "../shape/values.js";

export const list_watch_profiles: Handler<"list_watch_profiles"> = async (args, { backend }) => {
  const kind = args.kind;
  const body = await backend.call((c) =>
    kind === undefined ? c.GET("/api/profiles") : c.GET("/api/profiles", { params: { query: { kind } } }),
  );
  const rows = Array.isArray(body) ? body : requireArray(asRecord(body).profiles, "the watch profiles");
  const profiles = rows.map(profileRow);
  return answerOf("list_watch_profiles", { profiles, count: profiles.length });
};
