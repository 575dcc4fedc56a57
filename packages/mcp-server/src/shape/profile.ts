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

/** The list row: id, kind, name, aliases, identifier schemes, ORCID, affiliations, basis_warning. */
export function profileRow(row: unknown): Record<string, unknown> {
  const p = asRecord(row);
  const identifiers = asRecord(p.identifiers);
  const names = Array.isArray(p.names) ? p.names : [];
  const name = strOrNull(p.display_name);
  const aliases = names
    .map((n) => (isRecord(n) ? strOrNull(n.value) : strOrNull(n)))
    .filter((v): v is string => v !== null && v !== name);
  return {
    id: p.id ?? null,
    kind: strOrNull(p.kind),
    name,
    aliases,
    identifier_schemes: Object.keys(identifiers),
    orcid: strOrNull(asRecord(identifiers.orcid).value),
    affiliations: Array.isArray(p.affiliations) ? p.affiliations : [],
    // Kept on every row, null where the profile has an identifier: a list is what a harness summarizes.
    basis_warning: strOrNull(p.basis_warning),
  };
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
