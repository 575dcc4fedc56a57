import type { RankedEntry, ScreenScore } from "@resmon/mcp-contract";
import { type CoverageSummary, outcomeWords } from "./coverage.js";
import { ALTERNATES, MAX_PER_FIRST_AUTHOR } from "./profile.js";
import { firstAuthor, type PaperRecord, yearOf } from "./records.js";
import type { Candidate, RecordFrom, Verdict } from "./state.js";

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
  /** Set when the scan ends with no paper: the sentence that says so and why (the first line of evidence.md). */
  found_nothing?: string | null;
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
    ...(chosen.length === 0 ? { found_nothing: input.found_nothing ?? "This scan found nothing." } : {}),
    generated_at: input.generated_at,
    basis: "resmon_record" as const,
    basis_note: basisNote(input.record_from ?? "json_export", input.lifecycle_served ?? true),
    not_served: input.not_served ?? [],
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

/** Why a paper's lifecycle is unchecked, said once for every paper it applies to. */
function lifecycleReason(status: string | null): string {
  if (status === null)
    return "resmon has not checked these papers for notices, so their retraction status is unknown.";
  if (status.startsWith("not asked"))
    return `no check was asked for (${status.slice(11)}), so their retraction status is unknown.`;
  if (status.startsWith("not finished"))
    return `the check did not finish (${status.slice(14)}), so their retraction status is unknown.`;
  return `resmon's last check says "${status}", so their retraction status is unknown.`;
}

function quoted(values: readonly string[]): string {
  return values.map((v) => `"${line(v)}"`).join(", ");
}

/** How the corpus searches were ranked: by similarity only where resmon said it served that. */
function corpusLines(cov: CoverageSummary): string[] {
  if (cov.corpus.length === 0) return [];
  const ranked = cov.corpus.filter((c) => c.sort_served === "similarity").length;
  const why = [
    ...new Set(
      cov.corpus
        .filter((c) => c.sort_served !== "similarity")
        .map((c) => c.similarity_unavailable)
        .filter((x): x is string => x !== null),
    ),
  ];
  return [
    "",
    `Corpus searches: ${cov.corpus.length}, of which ${ranked} ranked by similarity as resmon served it${why.length ? ` (the rest: ${quoted(why)})` : ""}.`,
  ];
}

/** The coverage section: hits per criterion, then every source as resmon recorded it, then every sweep. */
function coverageSection(e: Evidence): string[] {
  const out: string[] = ["## Coverage", ""];
  const cov = e.coverage;
  for (const [c, n] of Object.entries(cov.hits_per_criterion)) {
    const text = e.criteria.find((x) => x.id === c)?.text ?? "";
    out.push(`- ${c} (${line(text)}): ${n} papers${cov.thin_criteria.includes(c) ? " — thin" : ""}`);
  }
  if (cov.thin_criteria.length)
    out.push("", `Thin criteria (under 5 papers): ${cov.thin_criteria.join(", ")}.`);
  out.push(...corpusLines(cov));
  if (cov.sweeps.length === 0) {
    out.push(
      "",
      "No sweep ran: retrieval searched the papers resmon already holds, so no source was asked.",
      "",
    );
    return out;
  }
  out.push(
    "",
    "### Sources, as resmon recorded them",
    "",
    "A source counts as answered only where resmon's coverage said `answered`; `not reported` is a sweep whose run carried no coverage for it.",
    "",
    "| source | sweeps | answered | of which empty | did not answer | unknown | not reported |",
    "| --- | --- | --- | --- | --- | --- | --- |",
  );
  for (const t of cov.sources) {
    out.push(
      `| ${t.source} | ${t.sweeps} | ${t.answered} | ${t.genuine_empty} | ${t.non_answer} | ${t.unknown} | ${t.not_reported} |`,
    );
  }
  const risky = cov.sources.filter((t) => t.sweeps > t.answered);
  if (risky.length) {
    out.push(
      "",
      "Sources that did not answer, or whose outcome resmon did not record (a coverage risk, not an absence of papers):",
    );
    for (const t of risky) {
      out.push(`- ${t.source}: ${outcomeWords(t)}; queries ${t.query_ids.join(", ")}`);
      if (t.labels.length) out.push(`  - resmon's label: ${quoted(t.labels)}`);
      out.push(`  - zero_reason: ${t.zero_reasons.length ? quoted(t.zero_reasons) : "none recorded"}`);
      if (t.notes.length) out.push(`  - resmon's note: ${quoted(t.notes)}`);
    }
  } else if (cov.every_source_answered)
    out.push("", "Every source answered every sweep, by resmon's record.");
  out.push("", "### Sweeps", "");
  for (const s of cov.sweeps) {
    const where = `${s.query_id} (round ${s.round}, execution ${line(s.execution_id)}, ${s.status})`;
    const said = s.reported
      ? s.summary === null
        ? "no summary"
        : `"${line(s.summary)}"`
      : "coverage not_reported";
    out.push(`- ${where}: ${said}${s.error ? `; ${line(s.error)}` : ""}`);
  }
  out.push("");
  return out;
}

/** evidence.md: the basis, a block per paper with [UNVERIFIED — check manually] marks, coverage, retractions. */
export function renderMarkdown(e: Evidence, brief: string): string {
  const out: string[] = [];
  const nothing = "found_nothing" in e ? e.found_nothing : null;
  // A scan that found nothing says so in its first line, and why in the next.
  out.push(`# Evidence: scan ${e.scan_id}${nothing ? " — found nothing" : ""}`, "");
  if (nothing) out.push(nothing, "");
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
  if (e.not_served.length) {
    out.push(
      "What this resmon could not do for the scan:",
      "",
      ...e.not_served.map((n) => `- ${line(n)}`),
      "",
    );
  }
  out.push("## Papers", "");
  if (e.packets.length === 0) out.push("None.", "");
  const unchecked = new Map<string | null, number[]>();
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
    if (p.verification.lifecycle_unchecked) {
      out.push("- Lifecycle unchecked (see Notes)");
      const key = p.verification.lifecycle_check_status;
      unchecked.set(key, [...(unchecked.get(key) ?? []), p.rank]);
    }
    out.push("");
  }
  if (unchecked.size) {
    // Said once for all the papers it applies to, not once per paper.
    out.push("## Notes", "");
    for (const [status, ranks] of unchecked) {
      out.push(`- Lifecycle unchecked for the papers ranked ${ranks.join(", ")}: ${lifecycleReason(status)}`);
    }
    out.push("");
  }
  out.push(...coverageSection(e));
  out.push("## Removed retractions", "");
  if (e.retracted.length === 0) out.push("None among the ranked papers.");
  for (const r of e.retracted)
    out.push(`- ${line(r.title)} (resmon id ${r.doc_id}): ${r.label}, ${line(r.notice_url ?? r.notice_doi)}`);
  out.push("");
  return out.join("\n");
}

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
export function bibInRankOrder(bib: string, packets: readonly { doi: unknown; title: unknown }[]): string {
  const entries = bib
    .split(/\n(?=@)/)
    .map((x) => x.trim())
    .filter((x) => x.startsWith("@"));
  if (entries.length < 2) return bib;
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
    else placed[at] = entry;
  }
  return `${[...placed.filter((x): x is string => x !== undefined), ...rest].join("\n\n")}\n`;
}
