import type { Handler } from "../context.js";
import { ToolError } from "../errors.js";
import { answerOf } from "../shape/answer.js";
import { asRecord, requireArray, strOrNull } from "../shape/values.js";

type Presence = "present" | "absent" | "unreadable";

function presence(credentials: Record<string, unknown> | null, alias: string | null): Presence | null {
  if (alias === null) return null;
  if (credentials === null) return "unreadable";
  const status = asRecord(credentials[alias]).status;
  return status === "present" || status === "absent" || status === "unreadable" ? status : "unreadable";
}

export const list_sources: Handler<"list_sources"> = async (_args, { backend }) => {
  const catalog = requireArray(
    await backend.call((c) => c.GET("/api/repositories/catalog")),
    "the source catalog",
  );
  let credentials: Record<string, unknown> | null = null;
  let note: string | undefined;
  try {
    const body = asRecord(await backend.call((c) => c.GET("/api/credentials")));
    credentials = asRecord(body.credentials);
    if (body.keyring_responsive === false) {
      credentials = null;
      note = "The system keychain did not answer, so whether each key is stored is unreadable.";
    }
  } catch (err) {
    if (err instanceof ToolError && err.code === "backend_unavailable") throw err;
    note = "resmon could not report which keys are stored, so presence is unreadable for every source.";
  }
  // Slug, name, coverage, key requirement and the credential's alias and presence; never a value,
  // and no catalog notices or constraints.
  const sources = catalog.map((entry) => {
    const e = asRecord(entry);
    const alias = strOrNull(e.credential_name);
    return {
      slug: strOrNull(e.slug),
      name: strOrNull(e.name),
      coverage: strOrNull(e.subject_coverage),
      // Said only when resmon stated the requirement; without it the shape check refuses the list.
      ...(typeof e.api_key_requirement === "string"
        ? { key_required: e.api_key_requirement === "required" }
        : {}),
      key_requirement: strOrNull(e.api_key_requirement),
      credential_alias: alias,
      credential_status: presence(credentials, alias),
    };
  });
  const answer: Record<string, unknown> = { sources, count: sources.length };
  if (note) answer.note = note;
  return answerOf("list_sources", answer);
};
