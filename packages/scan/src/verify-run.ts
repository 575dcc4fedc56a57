import type { RankedEntry } from "@resmon/mcp-contract";
import { bibNote } from "./bib-note.js";
import type { Call } from "./call.js";
import { coverageOf } from "./coverage.js";
import { bibInRankOrder } from "./evidence-bibtex.js";
import { buildEvidence, type EvidenceInputs } from "./evidence-json.js";
import { renderMarkdown } from "./evidence-markdown.js";
import { nothingToRank } from "./payloads.js";
import { exportBibtex, exportCsv, exportJson, lifecycleOf } from "./resmon.js";
import { summaryOf } from "./scan-summary.js";
import { screeningAccount } from "./screening.js";
import type { Ranked } from "./select-packets.js";
import { scoresById, shortlistedIds } from "./shortlist.js";
import type { Candidate, RecordFrom, ScanState, Verdict } from "./state.js";
import { matchExportRows, verdictFor } from "./verify.js";

type Checks = NonNullable<ScanState["checks"]>;

/**
 * Verify every ranked paper against resmon's record (export + lifecycle), kept in state.checks so a
 * call that reaches its wait budget stops and the next scan_verify goes on. Returns whether all are
 * checked. A resmon without the JSON export is read through its CSV export of the same ids; one
 * without the lifecycle route is asked nothing there, and every paper is lifecycle_unchecked.
 */
async function check(call: Call, entries: readonly RankedEntry[]): Promise<boolean> {
  const state = call.state;
  const lacks = await call.serves("verify");
  if (state.checks === null) {
    const recordFrom: RecordFrom = lacks.json_export ? "csv_export" : "json_export";
    const exportRows = (ids: number[]) =>
      recordFrom === "csv_export" ? exportCsv(call, ids) : exportJson(call, ids);
    const ids = entries.map((e) => e.doc_id);
    const wanted = ids.map((doc_id) => ({ doc_id, record: call.records[doc_id] }));
    const now = matchExportRows(ids.length ? await exportRows(ids) : [], wanted);
    // Rows that could not be matched unambiguously are asked for one by one; no row is no_record.
    for (const id of ids.filter((x) => !now.has(x))) {
      const rows = await exportRows([id]);
      if (rows[0]) now.set(id, { ...rows[0], id });
    }
    state.checks = {
      records: Object.fromEntries(ids.map((id) => [String(id), now.get(id) ?? null])),
      record_from: recordFrom,
      lifecycle: {},
    };
    call.save();
  }
  const checks = state.checks;
  let checked = 0;
  for (const e of entries) {
    if (checks.lifecycle[e.doc_id] !== undefined) continue;
    if (lacks.lifecycle) {
      checks.lifecycle[e.doc_id] = { finished: false, asked: false, error: lacks.lifecycle.message };
      continue;
    }
    // At least one check per call, so every call advances; past the budget the rest wait for the next call.
    if (checked > 0 && call.remainingMs() <= 0) {
      call.save();
      return false;
    }
    checks.lifecycle[e.doc_id] = await lifecycleOf(call, e.doc_id);
    checked++;
    call.report();
  }
  call.save();
  return true;
}

/** What this resmon could not do for the scan, in words, for the evidence (empty on a resmon that has it all). */
function notServed(state: ScanState): string[] {
  const out: string[] = [];
  const unsorted = state.tasks.find(
    (t) => t.via === "corpus" && t.status === "done" && t.sort_asked === null,
  );
  if (unsorted)
    out.push(
      `Corpus searches were not ranked by similarity: no sort was asked for. ${unsorted.similarity_unavailable ?? ""}`.trim(),
    );
  if (state.expansion?.not_asked)
    out.push(`No expansion (similar papers) was asked for. ${state.expansion.not_asked}`);
  if (state.checks?.record_from === "csv_export")
    out.push(
      "resmon's record was read from its CSV reference export (this resmon has no JSON export) and compared under that rendering: whitespace collapsed, an absent value written as empty.",
    );
  const lifecycle = Object.values(state.checks?.lifecycle ?? {}).find(
    (l) => !l.finished && l.asked === false,
  );
  if (lifecycle && !lifecycle.finished)
    out.push(`No lifecycle (retraction) check was asked for. ${lifecycle.error}`);
  return out;
}

/**
 * Close a scan whose first round found nothing and whose sources resmon did not record as answering:
 * nothing to screen, expand or rank, so verification writes evidence that says what was not answered.
 */
export function closeFoundNothing(state: ScanState): void {
  state.retrieving = null;
  state.round_failed = false;
  state.expansion = { seeds: [], added: [], empty: [], failed: [] };
  state.gap = {
    needed: false,
    reasons: ["The first round found nothing."],
    queries: null,
    accepted_hash: null,
  };
  state.shortlist = { in_window: [], outside: [] };
  state.pages = [];
  state.closed_found_nothing = true;
}

/** Each ranked paper's verdict: its record at retrieval against resmon's now, and its lifecycle. */
function verdictsOf(call: Call, entries: readonly RankedEntry[], checks: Checks): Verdict[] {
  return entries.map((e) =>
    verdictFor(
      e.doc_id,
      e.cite,
      call.records[e.doc_id],
      checks.records[e.doc_id] ?? null,
      checks.lifecycle[e.doc_id] ?? { finished: false, error: "not checked" },
      checks.record_from,
    ),
  );
}

/** What evidence.json is built from: the ranked papers with their verdicts, coverage, counts and what was not served. */
function evidenceInputsOf(
  call: Call,
  entries: readonly RankedEntry[],
  verdicts: readonly Verdict[],
  checks: Checks,
): EvidenceInputs {
  const state = call.state;
  const candidates = new Map(state.candidates.map((c) => [c.doc_id, c]));
  const scores = scoresById(state.batches);
  const ranked: Ranked[] = entries.map((entry, i) => ({
    entry,
    candidate: candidates.get(entry.doc_id) as Candidate,
    verdict: verdicts[i] as Verdict,
    record: call.records[entry.doc_id],
    score: scores.get(entry.doc_id),
  }));
  const criteria = state.inputs.queries.criteria;
  const coverage = coverageOf(
    criteria.map((c) => c.id),
    state.candidates,
    state.batches,
    state.tasks,
    state.inputs.sources,
  );
  const counts = {
    retrievals: state.tasks.length,
    retrievals_failed: state.tasks.filter((t) => t.status === "failed").length,
    candidates: state.candidates.length,
    screened: state.batches.reduce((n, b) => n + (b.scores?.length ?? 0), 0),
    unscreened: state.screening_stopped?.unscreened.length ?? 0,
    shortlisted: shortlistedIds(state.shortlist).length,
    ranked: entries.length,
    verified: verdicts.filter((v) => v.verified).length,
  };
  return {
    scan_id: state.scan_id,
    generated_at: call.now().toISOString(),
    brief: state.inputs.brief,
    profile: state.inputs.profile,
    window: { since: state.inputs.since, until: state.inputs.until },
    criteria,
    ranked,
    top: state.inputs.top,
    foundational: state.inputs.foundational,
    coverage,
    counts,
    record_from: checks.record_from ?? "json_export",
    lifecycle_served: !Object.values(checks.lifecycle).some((l) => !l.finished && l.asked === false),
    not_served: notServed(state),
    retrievals: state.tasks,
    sources_searched: state.inputs.sources,
    screening: screeningAccount(state),
    found_nothing:
      ranked.length === 0
        ? nothingToRank(state)
        : "This scan found nothing it could keep: every ranked paper was retracted.",
  };
}

/** Verify, then emit evidence.json/md/bib and mark the scan complete. Nothing is repaired. */
export async function runVerification(call: Call): Promise<void> {
  const state = call.state;
  const entries: RankedEntry[] = state.pages.flatMap((p) => p.entries ?? []);
  call.working({ kind: "verify" });
  if (!(await check(call, entries))) return;
  const checks = state.checks as Checks;
  const verdicts = verdictsOf(call, entries, checks);
  const inputs = evidenceInputsOf(call, entries, verdicts, checks);
  const evidence = buildEvidence(inputs);
  // resmon's own BibTeX of the chosen papers; if it fails nothing is written and verify can be sent again.
  const bib = bibInRankOrder(
    await exportBibtex(
      call,
      evidence.packets.map((p) => p.doc_id),
    ),
    evidence.packets.map((p) => ({ doi: p.doi, title: p.title, note: bibNote(p.verification) })),
  );
  const files = {
    json: call.dir.writeText("evidence.json", `${JSON.stringify(evidence, null, 1)}\n`),
    md: call.dir.writeText("evidence.md", renderMarkdown(evidence, state.inputs.brief)),
    bib: call.dir.writeText("evidence.bib", bib),
  };
  state.verdicts = verdicts;
  state.files = files;
  state.summary = summaryOf(evidence, inputs.coverage);
  // Written last: files set is what makes the scan complete (steps.ts).
  call.save();
}
