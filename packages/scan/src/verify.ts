import type { Cite } from "@resmon/mcp-contract";
import { asCsvRenders } from "./csv-export.js";
import {
  changedFields,
  firstAuthorSurname,
  normalizeDoi,
  type PaperRecord,
  surname,
  titlesClose,
  yearOf,
} from "./records.js";
import type { LifecycleOutcome, RecordFrom, Verdict } from "./state.js";

/** The cited values against resmon's record now: DOI normalised, title close, year ±1, first author's surname. */
export function citeMismatches(cite: Cite | undefined, record: PaperRecord): Verdict["mismatches"] {
  if (!cite) return [];
  const out: Verdict["mismatches"] = [];
  if (cite.doi !== undefined && normalizeDoi(cite.doi) !== normalizeDoi(record.doi)) {
    out.push({ field: "doi", cited: cite.doi, resmon: record.doi });
  }
  if (cite.title !== undefined && !titlesClose(cite.title, record.title)) {
    out.push({ field: "title", cited: cite.title, resmon: record.title });
  }
  if (cite.year !== undefined) {
    const year = yearOf(record.publication_date);
    if (year === null || Math.abs(year - cite.year) > 1) {
      out.push({ field: "year", cited: cite.year, resmon: record.publication_date });
    }
  }
  if (cite.first_author !== undefined) {
    const resmon = firstAuthorSurname(record.authors);
    if (resmon === null || surname(cite.first_author) !== resmon) {
      out.push({ field: "author", cited: cite.first_author, resmon: record.authors });
    }
  }
  return out;
}

function retractionOf(events: Record<string, unknown>[]): Verdict["retraction"] {
  const r = events.find((e) => e.kind === "retraction");
  if (!r) return null;
  const s = (v: unknown) => (typeof v === "string" ? v : null);
  return {
    label: s(r.label) ?? "Retracted",
    notice_url: s(r.notice_url),
    notice_doi: s(r.notice_doi),
    notice_date: s(r.notice_date),
  };
}

/**
 * One ranked paper's verdict. Nothing is repaired: resmon's value stands beside the cited one.
 * A lifecycle that resmon has not checked ("ok") is unchecked, never an implied "not retracted".
 * A record read from the CSV export is compared with the record at retrieval as that CSV renders it.
 */
export function verdictFor(
  docId: number,
  cite: Cite | undefined,
  atRetrieval: PaperRecord | undefined,
  now: PaperRecord | null,
  lifecycle: LifecycleOutcome,
  recordFrom: RecordFrom = "json_export",
): Verdict {
  const events = lifecycle.finished ? lifecycle.events : [];
  const checkStatus = lifecycle.finished ? lifecycle.check_status : null;
  const mismatches = now ? citeMismatches(cite, now) : [];
  const before = atRetrieval && recordFrom === "csv_export" ? asCsvRenders(atRetrieval) : atRetrieval;
  const recordChanged = now && before ? changedFields(before, now) : [];
  const unfinished = lifecycle.finished
    ? null
    : `${lifecycle.asked === false ? "not asked" : "not finished"}: ${lifecycle.error}`;
  return {
    doc_id: docId,
    basis: "resmon_record",
    record_from: recordFrom,
    verified: now !== null && mismatches.length === 0 && recordChanged.length === 0,
    no_record: now === null,
    record_changed: recordChanged,
    mismatches,
    lifecycle_unchecked: !lifecycle.finished || checkStatus !== "ok",
    lifecycle_check_status: unfinished ?? checkStatus,
    retraction: retractionOf(events),
    record: now,
  };
}

/** Match export rows (which carry no ids) back to doc ids by source and external id, then by DOI. */
export function matchExportRows(
  rows: readonly PaperRecord[],
  wanted: readonly { doc_id: number; record: PaperRecord | undefined }[],
): Map<number, PaperRecord> {
  const out = new Map<number, PaperRecord>();
  const used = new Set<number>();
  const keyOf = (r: Pick<PaperRecord, "source_repository" | "external_id">) =>
    r.source_repository && r.external_id ? `${r.source_repository}\u0000${r.external_id}` : null;
  for (const pass of [keyOf, (r: PaperRecord) => normalizeDoi(r.doi)] as const) {
    for (const w of wanted) {
      if (out.has(w.doc_id) || !w.record) continue;
      const key = pass(w.record);
      if (!key) continue;
      const hits = rows.map((r, i) => ({ r, i })).filter(({ r, i }) => !used.has(i) && pass(r) === key);
      // Only an unambiguous match counts; anything else is asked for on its own.
      if (hits.length === 1 && hits[0]) {
        used.add(hits[0].i);
        out.set(w.doc_id, { ...hits[0].r, id: w.doc_id });
      }
    }
  }
  return out;
}
