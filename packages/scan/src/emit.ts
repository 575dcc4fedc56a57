import type { CoverageSummary } from "./coverage.js";
import { ALTERNATES, MAX_PER_FIRST_AUTHOR } from "./profile.js";
import { firstAuthor, type PaperRecord, yearOf } from "./records.js";
import type { Candidate, Verdict } from "./state.js";
import type { RankedEntry, ScreenScore } from "./types.js";

export interface Ranked {
  entry: RankedEntry;
  candidate: Candidate;
  verdict: Verdict;
  record: PaperRecord | undefined;
  score: ScreenScore | undefined;
}

function authorKey(r: Ranked): string | null {
  const a = firstAuthor(r.verdict.record?.authors ?? r.record?.authors);
  return a ? a.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase() : null;
}

/**
 * Choose the packets: retractions out; at most 2 per first author; a review and a contradicting
 * paper when one was ranked; the foundational (out-of-window) slots; then backfill in rank order.
 */
export function selectPackets(
  ranked: readonly Ranked[],
  top: number,
  foundational: number,
): { chosen: Ranked[]; alternates: Ranked[] } {
  const eligible = ranked
    .filter((r) => r.verdict.retraction === null)
    .sort((a, b) => a.entry.rank - b.entry.rank || a.entry.doc_id - b.entry.doc_id);
  const chosen: Ranked[] = [];
  const perAuthor = new Map<string, number>();
  const add = (r: Ranked | undefined): boolean => {
    if (!r || chosen.includes(r) || chosen.length >= top) return false;
    const key = authorKey(r);
    if (key !== null && (perAuthor.get(key) ?? 0) >= MAX_PER_FIRST_AUTHOR) return false;
    if (key !== null) perAuthor.set(key, (perAuthor.get(key) ?? 0) + 1);
    chosen.push(r);
    return true;
  };
  const inWindow = (r: Ranked) => !r.candidate.out_of_window;
  for (const role of ["review", "contradicting"] as const) {
    for (const r of eligible.filter((x) => x.entry.role === role && inWindow(x))) if (add(r)) break;
  }
  let slots = foundational;
  for (const r of eligible.filter((x) => !inWindow(x) || x.entry.role === "foundational")) {
    if (slots <= 0) break;
    if (add(r)) slots--;
  }
  // Out-of-window papers enter only through the foundational slots; the window fills the rest.
  for (const r of eligible.filter(inWindow)) {
    if (chosen.length >= top) break;
    add(r);
  }
  chosen.sort((a, b) => a.entry.rank - b.entry.rank || a.entry.doc_id - b.entry.doc_id);
  const alternates = eligible.filter((r) => !chosen.includes(r)).slice(0, ALTERNATES);
  return { chosen, alternates };
}

function packet(r: Ranked) {
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
    found_by: r.candidate.query_ids,
    cite: r.entry.cite ?? null,
    // Left for the model: the server does not compose prose.
    why: r.entry.why ?? null,
    why_it_matters: null,
    limitations: null,
    verification: {
      basis: r.verdict.basis,
      verified: r.verdict.verified,
      no_record: r.verdict.no_record,
      record_changed: r.verdict.record_changed,
      mismatches: r.verdict.mismatches,
      lifecycle_unchecked: r.verdict.lifecycle_unchecked,
      lifecycle_check_status: r.verdict.lifecycle_check_status,
    },
  };
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
}

export function buildEvidence(input: EvidenceInputs) {
  const { chosen, alternates } = selectPackets(input.ranked, input.top, input.foundational);
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
    generated_at: input.generated_at,
    basis: "resmon_record" as const,
    basis_note:
      "Verified against this resmon's stored record (POST /api/export/references and GET /api/documents/{id}/lifecycle), not the live web.",
    profile: input.profile,
    window: input.window,
    criteria: input.criteria,
    packets: chosen.map(packet),
    alternates: alternates.map(packet),
    retracted,
    unverified,
    lifecycle_unchecked: lifecycleUnchecked,
    coverage: input.coverage,
    counts: {
      ...input.counts,
      packets: chosen.length,
      alternates: alternates.length,
      retracted: retracted.length,
    },
  };
}

export type Evidence = ReturnType<typeof buildEvidence>;

function line(value: unknown): string {
  return String(value ?? "—").replace(/\s+/g, " ");
}

function lifecycleLine(status: string | null): string {
  if (status === null)
    return "Lifecycle unchecked: resmon has not checked this paper for notices, so retraction status is unknown.";
  if (status.startsWith("not finished"))
    return `Lifecycle unchecked: the check did not finish (${status.slice(14)}), so retraction status is unknown.`;
  return `Lifecycle unchecked: resmon's last check says "${status}", so retraction status is unknown.`;
}

/** evidence.md: the basis, a block per paper with [UNVERIFIED — check manually] marks, coverage, retractions. */
export function renderMarkdown(e: Evidence, brief: string): string {
  const out: string[] = [];
  out.push(`# Evidence: scan ${e.scan_id}`, "");
  out.push(
    `Generated ${e.generated_at} · profile ${e.profile} · window ${e.window.since ?? "any"} to ${e.window.until ?? "any"}`,
    "",
  );
  out.push("## Brief", "", brief.trim(), "");
  out.push(
    "## Verification basis",
    "",
    `Basis: \`${e.basis}\`. ${e.basis_note} Nothing was repaired: where a cited value differs, resmon's value is shown beside it.`,
    "",
  );
  out.push("## Papers", "");
  for (const p of e.packets) {
    const mark = p.verification.verified ? "" : " [UNVERIFIED — check manually]";
    out.push(`### ${p.rank}. ${line(p.title)}${mark}`, "");
    out.push(`- Authors: ${line(p.authors)}`);
    out.push(
      `- Year: ${line(p.year)} · Source: ${line(p.source)} · DOI: ${line(p.doi)} · resmon id ${p.doc_id}`,
    );
    if (p.role) out.push(`- Role: ${p.role}`);
    if (p.out_of_window) out.push("- Outside the window (foundational slot)");
    out.push(`- Screening: score ${line(p.score)}, criteria ${p.criteria_hit.join(", ") || "none"}`);
    if (p.why) out.push(`- Why (the model's): ${line(p.why)}`);
    for (const m of p.verification.mismatches) {
      out.push(`- Mismatch ${m.field}: cited ${line(m.cited)}; resmon has ${line(m.resmon)}`);
    }
    if (p.verification.no_record) out.push("- No record: resmon returned no row for this id.");
    if (p.verification.record_changed.length) {
      out.push(`- Record changed since retrieval: ${p.verification.record_changed.join(", ")}`);
    }
    if (p.verification.lifecycle_unchecked)
      out.push(`- ${lifecycleLine(p.verification.lifecycle_check_status)}`);
    out.push("");
  }
  out.push("## Coverage", "");
  for (const [c, n] of Object.entries(e.coverage.hits_per_criterion)) {
    const text = e.criteria.find((x) => x.id === c)?.text ?? "";
    out.push(`- ${c} (${line(text)}): ${n} papers${e.coverage.thin_criteria.includes(c) ? " — thin" : ""}`);
  }
  if (e.coverage.thin_criteria.length)
    out.push("", `Thin criteria (under 5 papers): ${e.coverage.thin_criteria.join(", ")}.`);
  if (e.coverage.silent_sources.length) {
    out.push("", "Sources that did not answer (a coverage risk, not an absence of papers):");
    for (const s of e.coverage.silent_sources) out.push(`- ${s.source} (queries ${s.query_ids.join(", ")})`);
  } else out.push("", "Every source answered every sweep.");
  const failed = e.coverage.sweeps.filter((s) => s.status === "failed");
  if (failed.length) {
    out.push("", "Sweeps that failed:");
    for (const s of failed) out.push(`- query ${s.query_id} (round ${s.round}): ${line(s.error)}`);
  }
  out.push("", "## Removed retractions", "");
  if (e.retracted.length === 0) out.push("None among the ranked papers.");
  for (const r of e.retracted)
    out.push(`- ${line(r.title)} (resmon id ${r.doc_id}): ${r.label}, ${line(r.notice_url ?? r.notice_doi)}`);
  out.push("");
  return out.join("\n");
}
