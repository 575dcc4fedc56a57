/** evidence.json: the chosen packets, alternates, retractions, unverified papers and coverage, as data. */
import type { CoverageSummary } from "./coverage.js";
import { foundBy, onlyBySimilarity, type Retrieval } from "./provenance.js";
import { yearOf } from "./records.js";
import type { ScreeningAccount } from "./screening.js";
import { type Alternate, type Placed, type Ranked, selectPackets } from "./select-packets.js";
import type { RecordFrom } from "./state.js";

function packet(r: Ranked, retrievals: readonly Retrieval[]) {
  const rec = r.verdict.record ?? r.record;
  return {
    doc_id: r.entry.doc_id,
    merged_ids: r.candidate.merged_ids,
    rank: r.entry.rank,
    role: r.entry.role ?? null,
    title: rec?.title ?? null,
    authors: rec?.authors ?? null,
    year: yearOf(rec?.publication_date),
    publication_date: rec?.publication_date ?? null,
    doi: rec?.doi ?? null,
    url: rec?.url ?? null,
    source: rec?.source_repository ?? null,
    out_of_window: r.candidate.out_of_window,
    score: r.score?.score ?? null,
    criteria_hit: r.score?.criteria_hit ?? [],
    screen_reason: r.score?.reason ?? null,
    // How the scan found it: a query's sweep or corpus search, or similarity to another paper.
    found_by: foundBy(r.candidate, retrievals),
    only_by_similarity: onlyBySimilarity(r.candidate),
    cite: r.entry.cite ?? null,
    // Left for the model: the server does not compose prose.
    why: r.entry.why ?? null,
    why_it_matters: null,
    limitations: null,
    verification: {
      basis: r.verdict.basis,
      record_from: r.verdict.record_from ?? "json_export",
      verified: r.verdict.verified,
      no_record: r.verdict.no_record,
      record_changed: r.verdict.record_changed,
      mismatches: r.verdict.mismatches,
      lifecycle_unchecked: r.verdict.lifecycle_unchecked,
      lifecycle_check_status: r.verdict.lifecycle_check_status,
    },
  };
}

/** A chosen paper: its position in the result and the slot that put it there, then the packet. */
function placed(c: Placed, retrievals: readonly Retrieval[]) {
  return {
    position: c.position,
    slot: c.slot,
    slot_words: c.words,
    ...packet(c.paper, retrievals),
  };
}

/** An alternate: the packet, and why the result left it out. */
function alternate(a: Alternate, retrievals: readonly Retrieval[]) {
  return { ...packet(a.paper, retrievals), left_out: a.left_out, left_out_words: a.words };
}

export interface EvidenceInputs {
  scan_id: string;
  generated_at: string;
  brief: string;
  profile: string;
  window: { since: string | null; until: string | null };
  criteria: { id: string; text: string }[];
  ranked: readonly Ranked[];
  top: number;
  foundational: number;
  coverage: CoverageSummary;
  counts: Record<string, number>;
  /** The export resmon's record was read from (csv: compared under its rendering). Default json_export. */
  record_from?: RecordFrom;
  /** False when this resmon has no lifecycle route (nothing was asked there). Default true. */
  lifecycle_served?: boolean;
  /** What this resmon could not do for the scan, in words (empty on a resmon that has it all). */
  not_served?: string[];
  /** The scan's retrievals, for each paper's found_by (none: only similarity is said). */
  retrievals?: readonly Retrieval[];
  /** The sources the scan's sweeps searched (its selection). */
  sources_searched?: readonly string[];
  /** Set when the scan ends with no paper: the sentence that says so and why (the first line of evidence.md). */
  found_nothing?: string | null;
  /** What happened to every screened paper (by score: ranked, left out, below the bar), a stop, corrections. */
  screening?: ScreeningAccount;
}

/** What verification read, in words: the export it came from and whether the lifecycle was asked. */
function basisNote(recordFrom: RecordFrom, lifecycle: boolean): string {
  const routes = lifecycle
    ? "POST /api/export/references and GET /api/documents/{id}/lifecycle"
    : "POST /api/export/references; this resmon has no lifecycle route, so no paper's retraction status was checked";
  const csv =
    recordFrom === "csv_export"
      ? " This resmon has no JSON export, so its record was read from its CSV export of the same ids, which collapses runs of whitespace to one space and writes an absent value as empty; the record at retrieval was compared under that same rendering, so a difference in whitespace alone, or between absent and empty, is not seen."
      : "";
  return `Verified against this resmon's stored record (${routes}), not the live web.${csv}`;
}

export function buildEvidence(input: EvidenceInputs) {
  const retrievals = input.retrievals ?? [];
  const mix = selectPackets(input.ranked, input.top, input.foundational, input.window.since);
  const chosen = mix.chosen.map((c) => c.paper);
  const retracted = input.ranked
    .filter((r) => r.verdict.retraction !== null)
    .map((r) => ({
      doc_id: r.entry.doc_id,
      title: (r.verdict.record ?? r.record)?.title ?? null,
      rank: r.entry.rank,
      ...r.verdict.retraction,
    }));
  const unverified = input.ranked
    .filter((r) => !r.verdict.verified && r.verdict.retraction === null)
    .map((r) => ({
      doc_id: r.entry.doc_id,
      title: (r.verdict.record ?? r.record)?.title ?? null,
      no_record: r.verdict.no_record,
      record_changed: r.verdict.record_changed,
      mismatches: r.verdict.mismatches,
      in_packets: chosen.includes(r),
    }));
  const lifecycleUnchecked = input.ranked
    .filter((r) => r.verdict.lifecycle_unchecked)
    .map((r) => r.entry.doc_id);
  return {
    scan_id: input.scan_id,
    ...(chosen.length === 0 ? { found_nothing: input.found_nothing ?? "This scan found nothing." } : {}),
    generated_at: input.generated_at,
    basis: "resmon_record" as const,
    basis_note: basisNote(input.record_from ?? "json_export", input.lifecycle_served ?? true),
    not_served: input.not_served ?? [],
    profile: input.profile,
    window: input.window,
    criteria: input.criteria,
    // Numbered by place in the result; `rank` stays the model's rank over the whole shortlist.
    packets: mix.chosen.map((c) => placed(c, retrievals)),
    alternates: mix.alternates.map((a) => alternate(a, retrievals)),
    // What was searched, apart from where the papers came from (a paper's source repository).
    sources_searched: input.sources_searched ?? [],
    mix: mix.words,
    retracted,
    unverified,
    lifecycle_unchecked: lifecycleUnchecked,
    coverage: input.coverage,
    ...(input.screening ? { screening: input.screening } : {}),
    counts: {
      ...input.counts,
      packets: chosen.length,
      alternates: mix.alternates.length,
      retracted: retracted.length,
    },
  };
}

export type Evidence = ReturnType<typeof buildEvidence>;
