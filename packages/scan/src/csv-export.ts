/**
 * resmon's CSV reference export read back as records: what verification reads on a resmon without
 * the JSON export (1.6, 1.7). Its columns (reference_export.CSV_COLUMNS, read at v1.6.0 f26f4dd and
 * unchanged at b91975a) are exactly the JSON export's keys. Its to_csv writes every value as
 * `" ".join(str(value).split())` and an absent one as "", so a record can be compared with a CSV row
 * only as the CSV renders it: a difference in whitespace alone, or between absent and empty, is not
 * there to be seen.
 */
import { type PaperRecord, RECORD_FIELDS } from "./records.js";

type Row = Record<string, unknown>;

/** The characters Python's str.split() splits on (str.isspace()), which JavaScript's \s does not match exactly. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: Python counts \x1c-\x1f (the separators) as whitespace too.
const PY_WHITESPACE = /[\t\n\v\f\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/g;

/** A value as resmon's CSV writes it, read back: runs of whitespace one space, ends trimmed, "" as absent. */
export function csvRendering(value: string | null): string | null {
  if (value === null) return null;
  const collapsed = value.replace(PY_WHITESPACE, " ").replace(/^ | $/g, "");
  return collapsed === "" ? null : collapsed;
}

/** A record as the CSV export would render it, for comparing with a record read from that export. */
export function asCsvRenders(record: PaperRecord): PaperRecord {
  const out: PaperRecord = { ...record, abstract: csvRendering(record.abstract) };
  for (const f of RECORD_FIELDS) out[f] = csvRendering(record[f]);
  return out;
}

/** CSV as Python's csv module writes it (excel dialect): "…" quoting with "" for a quote, CRLF rows. Null when a quote is never closed. */
export function parseCsv(text: string): string[][] | null {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  let i = 0;
  while (i < text.length) {
    const ch = text[i] as string;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 2;
        continue;
      }
      if (ch === '"') quoted = false;
      else cell += ch;
      i++;
      continue;
    }
    if (ch === '"' && cell === "") quoted = true;
    else if (ch === ",") {
      row.push(cell);
      cell = "";
    } else if (ch === "\r" || ch === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      if (ch === "\r" && text[i + 1] === "\n") i++;
    } else cell += ch;
    i++;
  }
  if (quoted) return null;
  if (cell !== "" || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

/**
 * The export's rows as objects keyed by its header, an empty cell read as absent (null); null when
 * the text is not CSV, has no `title` column in its header, or has a row longer than the header.
 */
export function csvRows(text: string): Row[] | null {
  const table = parseCsv(text);
  const header = table?.[0];
  if (!table || !header?.includes("title")) return null;
  const out: Row[] = [];
  for (const cells of table.slice(1)) {
    if (cells.length > header.length) return null;
    const row: Row = {};
    header.forEach((name, i) => {
      const v = cells[i];
      row[name] = v === undefined || v === "" ? null : v;
    });
    out.push(row);
  }
  return out;
}
