import { markNotReported } from "./reported.js";
import { asRecord, isRecord, strOrNull } from "./values.js";

/** On every matches answer, even an empty one, so a caller learns what a basis means before there is data. */
export const WHAT_A_BASIS_MEANS = {
  identifier:
    "The paper's author record carried an identifier (an ORCID) equal to the profile's. The only basis that is about the person rather than a name.",
  "name+affiliation":
    "A name matched and an affiliation on that author's record matched one of the profile's. Stronger than a name alone, and still not identity: two people with the same name at the same institution both match.",
  name_only:
    "Only a name matched. resmon can say the paper has this name on it and nothing more; never present it as the person's paper.",
} as const;

/**
 * The list row: id, kind, name, aliases, identifier schemes, ORCID, affiliations, basis_warning.
 * Names, identifiers or affiliations the record did not carry are marked not reported, not empty.
 */
export function profileRow(row: unknown): Record<string, unknown> {
  const p = asRecord(row);
  const name = strOrNull(p.display_name);
  const answer: Record<string, unknown> = { id: p.id ?? null, kind: strOrNull(p.kind), name };
  const missing: string[] = [];
  if (Array.isArray(p.names)) {
    answer.aliases = p.names
      .map((n) => (isRecord(n) ? strOrNull(n.value) : strOrNull(n)))
      .filter((v): v is string => v !== null && v !== name);
  } else missing.push("aliases");
  if (isRecord(p.identifiers)) {
    answer.identifier_schemes = Object.keys(p.identifiers);
    answer.orcid = strOrNull(asRecord(p.identifiers.orcid).value);
  } else missing.push("identifier_schemes", "orcid");
  if (Array.isArray(p.affiliations)) answer.affiliations = p.affiliations;
  else missing.push("affiliations");
  // Kept on every row, null where the profile has an identifier: a list is what a harness summarizes.
  answer.basis_warning = strOrNull(p.basis_warning);
  markNotReported(answer, missing);
  return answer;
}

/** A match row: the paper plus basis, matched author and evidence, always. */
export function matchRow(row: unknown): Record<string, unknown> {
  const m = asRecord(row);
  return {
    doc_id: m.document_id ?? m.id ?? null,
    title: strOrNull(m.title),
    date: strOrNull(m.publication_date),
    source: strOrNull(m.source_repository),
    doi: strOrNull(m.doi),
    url: strOrNull(m.url),
    basis: strOrNull(m.basis),
    matched_author: strOrNull(m.matched_author),
    evidence: m.evidence ?? null,
    first_seen_at: strOrNull(m.first_seen_at),
  };
}
