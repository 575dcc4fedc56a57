/** A paper as resmon stored it (a references/explorer/similar row), and the text keys that compare papers. */
export interface PaperRecord {
  id: number;
  title: string | null;
  authors: string | null;
  publication_date: string | null;
  doi: string | null;
  url: string | null;
  source_repository: string | null;
  external_id: string | null;
  abstract: string | null;
  /** Fields the row resmon sent did not carry at all (a similar-papers row has no external id). */
  absent?: string[];
}

export const RECORD_FIELDS = [
  "title",
  "authors",
  "publication_date",
  "doi",
  "url",
  "source_repository",
  "external_id",
] as const;

function str(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

/** A row from any of resmon's paper-shaped answers; null when it carries no numeric id. */
export function recordFrom(row: Record<string, unknown>, id?: number): PaperRecord | null {
  const docId =
    id ??
    (typeof row.id === "number" ? row.id : typeof row.document_id === "number" ? row.document_id : null);
  if (docId === null || !Number.isInteger(docId)) return null;
  const record: PaperRecord = {
    id: docId,
    title: str(row.title),
    authors: str(row.authors),
    publication_date: str(row.publication_date),
    doi: str(row.doi),
    url: str(row.url),
    source_repository: str(row.source_repository),
    external_id: str(row.external_id),
    abstract: str(row.abstract),
  };
  const absent = [...RECORD_FIELDS, "abstract" as const].filter((f) => !(f in row));
  if (absent.length) record.absent = absent;
  return record;
}

/** A fuller view of the same paper fills the fields an earlier row did not carry; nothing it carried is replaced. */
export function fillAbsent(earlier: PaperRecord, later: PaperRecord): PaperRecord {
  if (!earlier.absent?.length) return earlier;
  const out: PaperRecord = { ...earlier };
  const still: string[] = [];
  for (const f of earlier.absent) {
    if (later.absent?.includes(f)) still.push(f);
    else
      (out as unknown as Record<string, unknown>)[f] =
        (later as unknown as Record<string, unknown>)[f] ?? null;
  }
  if (still.length) out.absent = still;
  else delete out.absent;
  return out;
}

/** Fields that differ between two records of the same paper (abstract left out: it is not cited). */
export function changedFields(before: PaperRecord, now: PaperRecord): string[] {
  const unknown = new Set([...(before.absent ?? []), ...(now.absent ?? [])]);
  return RECORD_FIELDS.filter((f) => !unknown.has(f) && (before[f] ?? null) !== (now[f] ?? null));
}

export function normalizeDoi(doi: string | null | undefined): string | null {
  if (!doi) return null;
  const d = doi
    .trim()
    .toLowerCase()
    .replace(/^(https?:\/\/)?(dx\.)?doi\.org\//, "")
    .replace(/^doi:\s*/, "");
  return d.length ? d : null;
}

/** The arXiv id of a record: its external id when it came from arXiv, or an arXiv DOI. */
export function arxivId(
  record: Pick<PaperRecord, "doi" | "source_repository" | "external_id">,
): string | null {
  const fromDoi = normalizeDoi(record.doi)?.match(/^10\.48550\/arxiv\.(.+)$/)?.[1];
  if (fromDoi) return fromDoi.replace(/v\d+$/, "");
  if (record.source_repository === "arxiv" && record.external_id) {
    return record.external_id
      .toLowerCase()
      .replace(/^arxiv:/, "")
      .replace(/v\d+$/, "");
  }
  return null;
}

function fold(text: string): string {
  return text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
}

export function titleWords(title: string | null | undefined): string[] {
  if (!title) return [];
  return fold(title)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** Titles are close when their word lists are equal or overlap by at least 90% (Dice over word sets). */
export function titlesClose(a: string | null | undefined, b: string | null | undefined): boolean {
  const wa = titleWords(a);
  const wb = titleWords(b);
  if (wa.length === 0 || wb.length === 0) return false;
  if (wa.join(" ") === wb.join(" ")) return true;
  const sa = new Set(wa);
  const sb = new Set(wb);
  let shared = 0;
  for (const w of sa) if (sb.has(w)) shared++;
  return (2 * shared) / (sa.size + sb.size) >= 0.9;
}

export function yearOf(date: string | null | undefined): number | null {
  const m = date?.match(/^(\d{4})/);
  return m ? Number(m[1]) : null;
}

/** resmon keeps authors as one string: "Ada Lovelace, Alan Turing" (or "Surname, Given; …"). */
export function firstAuthor(authors: string | null | undefined): string | null {
  if (!authors?.trim()) return null;
  const list = authors.includes(";") ? authors.split(";") : authors.split(",");
  const first = list[0]?.trim();
  return first?.length ? first : null;
}

/** A surname from a name as a caller or resmon writes it: "Ada Lovelace", "Lovelace, A.", "Lovelace". */
export function surname(name: string | null | undefined): string | null {
  if (!name?.trim()) return null;
  const trimmed = name.trim();
  const part = trimmed.includes(",") ? (trimmed.split(",")[0] ?? "") : (trimmed.split(/\s+/).pop() ?? "");
  const folded = fold(part).replace(/[^\p{L}\p{N}-]/gu, "");
  return folded.length ? folded : null;
}

export function firstAuthorSurname(authors: string | null | undefined): string | null {
  const first = firstAuthor(authors);
  if (!first) return null;
  // "Surname, Given; …" lists put the surname first.
  return authors?.includes(";") ? surname(first.split(",")[0]) : surname(first);
}

/** Truncate at a word boundary; says whether it cut. */
export function clip(
  text: string | null | undefined,
  max: number,
): { text: string | null; clipped: boolean } {
  if (text === null || text === undefined) return { text: null, clipped: false };
  const t = text.replace(/\s+/g, " ").trim();
  if (t.length <= max) return { text: t, clipped: false };
  const cut = t.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return { text: `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`, clipped: true };
}

/** Authors for a payload: the first three, then "et al.". */
export function shortAuthors(authors: string | null | undefined): string | null {
  if (!authors) return null;
  const list = (authors.includes(";") ? authors.split(";") : authors.split(","))
    .map((a) => a.trim())
    .filter(Boolean);
  return list.length > 3 ? `${list.slice(0, 3).join(", ")} et al.` : list.join(", ");
}
