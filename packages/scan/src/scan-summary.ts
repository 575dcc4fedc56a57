import type { CoverageSummary } from "./coverage.js";
import type { Evidence } from "./evidence-json.js";
import { foundByLine } from "./provenance.js";
import { clip } from "./records.js";

/**
 * A complete scan's summary (state.summary, shown in its envelope): evidence.json in short, the rows
 * in rank order with their place and slot, what did not verify, what was retracted, the counts and
 * each source's coverage.
 */
export function summaryOf(evidence: Evidence, coverage: CoverageSummary): Record<string, unknown> {
  return {
    // First, so a scan that kept no paper says so before anything else.
    ...("found_nothing" in evidence ? { found_nothing: evidence.found_nothing } : {}),
    basis: "resmon_record",
    ...(evidence.not_served.length ? { not_served: evidence.not_served } : {}),
    // Each row its place in the result and the slot that put it there, beside the model's rank.
    mix: evidence.mix,
    rows: evidence.packets.map((p) => ({
      position: p.position,
      slot: p.slot,
      doc_id: p.doc_id,
      rank: p.rank,
      title: clip(p.title, 100).text,
      year: p.year,
      doi: p.doi,
      ...(p.role ? { role: p.role } : {}),
      verified: p.verification.verified,
      ...(p.verification.mismatches.length
        ? { mismatches: p.verification.mismatches.map((m) => m.field) }
        : {}),
      ...(p.verification.lifecycle_unchecked ? { lifecycle_unchecked: true } : {}),
      ...(p.out_of_window ? { out_of_window: true } : {}),
      found_by: foundByLine(p.found_by),
    })),
    alternates: evidence.alternates.map((p) => ({ doc_id: p.doc_id, rank: p.rank, left_out: p.left_out })),
    unverified: evidence.unverified.map((u) => ({
      doc_id: u.doc_id,
      ...(u.no_record ? { no_record: true } : {}),
      ...(u.record_changed.length ? { record_changed: u.record_changed } : {}),
      mismatches: u.mismatches,
    })),
    retracted: evidence.retracted.map((r) => ({
      doc_id: r.doc_id,
      title: clip(r.title, 100).text,
      notice_url: r.notice_url,
    })),
    counts: evidence.counts,
    coverage: {
      hits_per_criterion: coverage.hits_per_criterion,
      thin_criteria: coverage.thin_criteria,
      every_source_answered: coverage.every_source_answered,
      coverage_risk: coverage.silent_sources.length,
      silent_sources: coverage.silent_sources,
      sources: coverage.sources.map((t) => ({
        source: t.source,
        sweeps: t.sweeps,
        answered: t.answered,
        genuine_empty: t.genuine_empty,
        non_answer: t.non_answer,
        unknown: t.unknown,
        not_reported: t.not_reported,
      })),
      failed_retrievals: coverage.sweeps.filter((s) => s.status === "failed").map((s) => s.query_id),
    },
  };
}
