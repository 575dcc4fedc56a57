import type { Handler } from "../context.js";
import { answerOf } from "../shape/answer.js";
import { asRecord } from "../shape/values.js";

export const create_watch_profile: Handler<"create_watch_profile"> = async (args, { backend }) => {
  const name = args.name;
  const aliases = (args.aliases ?? []).filter((a) => a !== name);
  const orcid = args.orcid;
  const cited = args.orcid_cited;
  const identifiers: Record<string, { value: string; cited?: string }> = {};
  if (orcid !== undefined)
    identifiers.orcid = cited === undefined ? { value: orcid } : { value: orcid, cited };
  const body = {
    kind: "person",
    display_name: name,
    names: [name, ...aliases].map((value) => ({ value })),
    identifiers,
    affiliations: args.affiliations ?? [],
    field_hints: args.field_hints ?? [],
  };
  const profile = asRecord(await backend.call((c) => c.POST("/api/profiles", { body })));
  const warning =
    typeof profile.basis_warning === "string" && profile.basis_warning ? profile.basis_warning : null;
  if (warning === null) return answerOf("create_watch_profile", { profile, detail: {} });
  // Lifted to the top of the answer and repeated in detail: placement decides whether a caller repeats it.
  return answerOf("create_watch_profile", {
    basis_warning: warning,
    profile,
    detail: { basis_warning: warning },
  });
};
