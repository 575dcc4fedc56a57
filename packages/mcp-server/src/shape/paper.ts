import { asRecord, numOrNull, strOrNull } from "./values.js";

/** The compact paper every paper list carries: never the abstract, never report HTML. */
export interface Paper {
  id: number | null;
  title: string | null;
  authors: string | null;
  date: string | null;
  source: string | null;
  doi: string | null;
  url: string | null;
}

function authorsText(value: unknown): string | null {
  if (Array.isArray(value)) return value.filter((v) => typeof v === "string").join(", ");
  return strOrNull(value);
}

export function paper(row: unknown): Paper {
  const r = asRecord(row);
  return {
    id: numOrNull(r.id) ?? numOrNull(r.document_id),
    title: strOrNull(r.title),
    authors: authorsText(r.authors),
    date: strOrNull(r.publication_date) ?? strOrNull(r.date),
    source: strOrNull(r.source_repository) ?? strOrNull(r.source),
    doi: strOrNull(r.doi),
    url: strOrNull(r.url),
  };
}

/** A paper with its distance, for semantic answers and find_similar. */
export function rankedPaper(row: unknown): Paper & { distance: number | null } {
  return { ...paper(row), distance: numOrNull(asRecord(row).distance) };
}
