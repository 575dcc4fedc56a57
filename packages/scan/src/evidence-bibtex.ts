/** evidence.bib: resmon's own BibTeX export of the chosen papers, put in their rank order. */
import { withBibNote } from "./bib-note.js";

function normDoi(doi: unknown): string | null {
  return typeof doi === "string" && doi.trim()
    ? doi
        .trim()
        .toLowerCase()
        .replace(/^https?:\/\/(dx\.)?doi\.org\//, "")
    : null;
}

function normTitle(title: unknown): string | null {
  return typeof title === "string" && title.trim()
    ? title
        .normalize("NFKC")
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, " ")
        .trim()
    : null;
}

function bibField(entry: string, field: string): string | null {
  const m = new RegExp(`^\\s*${field}\\s*=\\s*\\{(.*)\\},?\\s*$`, "im").exec(entry);
  return m ? (m[1] ?? null) : null;
}

/**
 * resmon's BibTeX of the chosen papers, in their rank order (resmon exports in its own order). An
 * entry is matched to its paper by DOI, else by title; one that matches no paper is kept, at the end.
 */
export function bibInRankOrder(
  bib: string,
  packets: readonly { doi: unknown; title: unknown; note?: string | null }[],
): string {
  const entries = bib
    .split(/\n(?=@)/)
    .map((x) => x.trim())
    .filter((x) => x.startsWith("@"));
  if (entries.length === 0) return bib;
  const placed: (string | undefined)[] = packets.map(() => undefined);
  const rest: string[] = [];
  for (const entry of entries) {
    const doi = normDoi(bibField(entry, "doi"));
    const title = normTitle(bibField(entry, "title"));
    let at = packets.findIndex((p, i) => placed[i] === undefined && doi !== null && normDoi(p.doi) === doi);
    if (at < 0)
      at = packets.findIndex(
        (p, i) => placed[i] === undefined && title !== null && normTitle(p.title) === title,
      );
    if (at < 0) rest.push(entry);
    // The packet's warning (unverified, retraction unchecked) goes into the entry as its note.
    else placed[at] = withBibNote(entry, packets[at]?.note ?? null);
  }
  return `${[...placed.filter((x): x is string => x !== undefined), ...rest].join("\n\n")}\n`;
}
