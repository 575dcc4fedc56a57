/** evidence.md: evidence.json said for a person to read. */
import { allAnsweredWords, type CoverageSummary, outcomeWords } from "./coverage.js";
import type { Evidence } from "./evidence-json.js";
import { THIN_BELOW } from "./profile.js";
import { foundByLine } from "./provenance.js";

/**
 * "No retraction" said only as far as it was checked: of the ranked papers, those whose lifecycle
 * resmon checked; the unchecked ones are named as such, never counted as clean.
 */
export function noRetractionWords(ranked: number, unchecked: number): string {
  if (ranked === 0) return "None: no paper was ranked.";
  if (unchecked === 0) return `None among the ${ranked} ranked papers, by resmon's lifecycle check.`;
  if (unchecked >= ranked)
    return "None can be said: no ranked paper's retraction status was checked (see Notes), so a retraction among them would not be seen.";
  return `None among the ${ranked - unchecked} ranked papers whose lifecycle resmon checked; the other ${unchecked} were not checked, so a retraction among them would not be seen.`;
}

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
    out.push("", `Thin criteria (under ${THIN_BELOW} papers): ${cov.thin_criteria.join(", ")}.`);
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
    out.push("", allAnsweredWords(cov.sweeps.filter((s) => s.status === "done").map((s) => s.papers)));
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

/** What was searched, apart from where the chosen papers came from: the expansion reaches further. */
function provenanceSection(e: Evidence): string[] {
  if (e.packets.length === 0) return [];
  const from = new Map<string, number>();
  for (const p of e.packets) from.set(line(p.source), (from.get(line(p.source)) ?? 0) + 1);
  const similar = e.packets.filter((p) => p.only_by_similarity).length;
  const out = [
    "## Where the papers came from",
    "",
    `- Sources searched (the scan's sweeps): ${e.sources_searched.join(", ") || "none"}.`,
    `- Sources the ${e.packets.length} papers above came from: ${[...from].map(([s, n]) => `${s} (${n})`).join(", ")}.`,
  ];
  if (similar)
    out.push(
      `- ${similar} of the ${e.packets.length} were found only by similarity to another paper (resmon's similar-papers search, the expansion), not by a query; the expansion is not limited to the sources searched or the window.`,
    );
  out.push("");
  return out;
}

/** How the result's places were filled, and each alternate with why it was left out. */
function mixSection(e: Evidence): string[] {
  if (e.packets.length === 0) return [];
  const out = ["## How the result was filled", "", e.mix, ""];
  if (e.alternates.length) {
    out.push("Alternates (ranked, left out):", "");
    for (const a of e.alternates)
      out.push(`- ${line(a.title)} (the model's rank ${a.rank}, resmon id ${a.doc_id}): ${a.left_out_words}`);
    out.push("");
  }
  return out;
}

/** What happened to every screened paper, by the score the model gave it; a stop and each correction. */
function screeningSection(e: Evidence): string[] {
  const s = "screening" in e ? e.screening : undefined;
  if (!s) return [];
  const out = ["## Screening", ""];
  for (const score of ["3", "2", "1", "0"]) {
    const n = s.by_score[score];
    if (!n || n.screened === 0) continue;
    out.push(
      n.below_bar !== undefined
        ? `- Scored ${score}: ${n.screened}, below the bar (2) for ranking.`
        : `- Scored ${score}: ${n.screened}; ${n.ranked ?? 0} ranked, ${n.left_out ?? 0} left out by the shortlist's bound (2 × top + 10 papers ranked).`,
    );
  }
  if (s.unscreened) out.push(`- Not screened: ${s.unscreened}.`);
  if (s.stopped) out.push("", s.stopped);
  if (s.corrections.length) {
    out.push("", "Scores corrected before the shortlist was built:", "");
    for (const c of s.corrections)
      out.push(`- resmon id ${c.doc_id}: ${c.from.score} → ${c.to.score} (${line(c.reason)})`);
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
    // Numbered by place in the result; the model's rank over the shortlist is said beside the slot.
    out.push(`### ${p.position}. ${line(p.title)}${mark}`, "");
    out.push(`- In the result: ${p.slot_words} (the model's rank ${p.rank})`);
    out.push(`- Authors: ${line(p.authors)}`);
    out.push(
      `- Year: ${line(p.year)} · Source: ${line(p.source)} · DOI: ${line(p.doi)} · resmon id ${p.doc_id}`,
    );
    const unsearched = p.source !== null && !e.sources_searched.includes(String(p.source));
    out.push(
      `- Found by: ${foundByLine(p.found_by) || "not on record"}${unsearched ? ` (from ${line(p.source)}, a source the scan did not search)` : ""}`,
    );
    if (p.role) out.push(`- Role: ${p.role}`);
    if (p.out_of_window) out.push("- Outside the window");
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
      unchecked.set(key, [...(unchecked.get(key) ?? []), p.position]);
    }
    out.push("");
  }
  out.push(...mixSection(e), ...provenanceSection(e));
  if (unchecked.size) {
    // Said once for all the papers it applies to, not once per paper.
    out.push("## Notes", "");
    for (const [status, ranks] of unchecked) {
      out.push(`- Lifecycle unchecked for papers ${ranks.join(", ")} above: ${lifecycleReason(status)}`);
    }
    out.push("");
  }
  out.push(...screeningSection(e), ...coverageSection(e));
  out.push("## Removed retractions", "");
  const ranked = (e.counts as Record<string, number>).ranked ?? 0;
  if (e.retracted.length === 0) out.push(noRetractionWords(ranked, e.lifecycle_unchecked.length));
  for (const r of e.retracted)
    out.push(`- ${line(r.title)} (resmon id ${r.doc_id}): ${r.label}, ${line(r.notice_url ?? r.notice_doi)}`);
  out.push("");
  return out.join("\n");
}
