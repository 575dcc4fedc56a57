/**
 * Verification on a resmon without the JSON export (1.6, 1.7) reads the CSV export of the same ids:
 * read back here against what the real resmon answered for the same four papers in both formats
 * (../shared/resmon/samples), and compared with the record at retrieval as that CSV renders it.
 */
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { asCsvRenders, csvRendering, csvRows, parseCsv } from "../src/csv-export.js";
import { type PaperRecord, recordFrom } from "../src/records.js";
import { verdictFor } from "../src/verify.js";

const SAMPLES = resolve(import.meta.dirname, "../../../../shared/resmon/samples");
const sample = (name: string) =>
  JSON.parse(readFileSync(resolve(SAMPLES, `POST__api_export_references.${name}.json`), "utf8"));

describe.skipIf(!existsSync(SAMPLES))("the real CSV export, read back", () => {
  it("holds the JSON export's rows of the same ids exactly, as the CSV renders them", () => {
    const csv = sample("csv");
    const json = sample("json");
    expect(csv.request.body.document_ids).toEqual(json.request.body.document_ids);
    const fromCsv = csvRows(csv.response.body as string);
    const fromJson = json.response.body as Record<string, unknown>[];
    expect(fromCsv).not.toBeNull();
    // The columns are the JSON export's keys (reference_export.CSV_COLUMNS), in the same order.
    expect(Object.keys(fromCsv?.[0] ?? {})).toEqual(Object.keys(fromJson[0] ?? {}));
    expect(fromCsv).toEqual(
      fromJson.map((row) =>
        Object.fromEntries(Object.entries(row).map(([k, v]) => [k, csvRendering(v as string | null)])),
      ),
    );
    // A quote inside a quoted field, commas inside one, and an absent abstract written as "".
    expect(fromCsv?.[2]?.title).toBe('A quote in the title: "folding" revisited, and a semicolon; too');
    expect(fromCsv?.[3]?.abstract).toBeNull();
  });
});

describe("CSV as resmon writes it", () => {
  it("collapses whitespace as Python's str.split() does, and reads empty as absent", () => {
    expect(csvRendering(" a \u00a0\n b\t")).toBe("a b");
    expect(csvRendering("x\x1cy\x85z")).toBe("x y z");
    // Not whitespace to Python, though JavaScript's \s matches it.
    expect(csvRendering("\ufeffx")).toBe("\ufeffx");
    expect(csvRendering("  ")).toBeNull();
    expect(csvRendering(null)).toBeNull();
  });

  it("parses CRLF rows and quoted fields; refuses an unclosed quote or a headerless text", () => {
    expect(parseCsv('a,b\r\n"x, ""y""",\r\n')).toEqual([
      ["a", "b"],
      ['x, "y"', ""],
    ]);
    expect(parseCsv('a,b\r\n"x,y\r\n')).toBeNull();
    expect(csvRows("doi,url\r\n1,2\r\n")).toBeNull();
    expect(csvRows("title\r\nx,y\r\n")).toBeNull();
    expect(csvRows("title,doi\r\n")).toEqual([]);
  });
});

function rec(over: Partial<PaperRecord> = {}): PaperRecord {
  return {
    id: 7,
    title: "Diffusion models for turbulent flow reconstruction",
    authors: "Ada Lovelace, Alan Turing",
    publication_date: "2024-01-15",
    doi: null,
    url: "https://example.org/arxiv/2401.00001",
    source_repository: "arxiv",
    external_id: "2401.00001",
    abstract: null,
    ...over,
  };
}

/** A row of the CSV export as verification reads it (csvRows, then recordFrom as the export's other rows). */
function csvRecord(text: string): PaperRecord {
  const row = csvRows(text)?.[0];
  const record = row ? recordFrom(row, 7) : null;
  if (!record) throw new Error("no row");
  return record;
}

const checked = { finished: true as const, check_status: "ok", events: [] };
const HEADER = "title,authors,publication_date,doi,url,source_repository,external_id,categories,abstract";

describe("a record read from the CSV export against the record at retrieval", () => {
  const atRetrieval = rec({ title: "Diffusion  models for\nturbulent flow reconstruction " });
  const now = csvRecord(
    `${HEADER}\r\nDiffusion models for turbulent flow reconstruction,"Ada Lovelace, Alan Turing",2024-01-15,,https://example.org/arxiv/2401.00001,arxiv,2401.00001,,\r\n`,
  );

  it("is compared under the CSV's rendering: whitespace and an absent DOI are no change", () => {
    const verdict = verdictFor(7, undefined, atRetrieval, now, checked, "csv_export");
    expect(verdict).toMatchObject({ record_changed: [], verified: true, record_from: "csv_export" });
    expect(asCsvRenders(atRetrieval).title).toBe(now.title);
  });

  it("read as if it were the JSON export, the same rows would be a false change", () => {
    expect(verdictFor(7, undefined, atRetrieval, now, checked).record_changed).toEqual(["title"]);
  });

  it("still sees a real change and a cited value that differs", () => {
    const changed = verdictFor(
      7,
      { year: 2019 },
      rec({ title: "Another title" }),
      now,
      checked,
      "csv_export",
    );
    expect(changed.record_changed).toEqual(["title"]);
    expect(changed.mismatches.map((m) => m.field)).toEqual(["year"]);
    expect(changed.verified).toBe(false);
  });

  it("says a lifecycle check that was not asked as that, not as a check that did not finish", () => {
    const lack = "resmon 1.6.1 does not serve GET /api/documents/{doc_id}/lifecycle";
    const v = verdictFor(
      7,
      undefined,
      rec(),
      now,
      { finished: false, asked: false, error: lack },
      "csv_export",
    );
    expect(v.lifecycle_unchecked).toBe(true);
    expect(v.lifecycle_check_status).toBe(`not asked: ${lack}`);
  });
});
