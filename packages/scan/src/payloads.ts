import type { NextAction, ScreenScore } from "@resmon/mcp-contract";
import { allAnsweredWords, atRisk, coverageOf, riskWords, tallySources } from "./coverage.js";
import { PAGE_SIZE } from "./profile.js";
import { batchKind, EXPANSION_BATCH_NOTE, foundBy, foundByLine } from "./provenance.js";
import { clip, type PaperRecord, shortAuthors, yearOf } from "./records.js";
import { stoppedWords as screeningStoppedWords, stopOfferWhy, unscreenedIds } from "./screening.js";
import { scoresById } from "./shortlist.js";
import type { RecordBook, ScanState } from "./state.js";
import type { Step } from "./steps.js";
import { retryOffer, retryUnderWay, stopOptions, stoppedWords } from "./stop.js";

/**
 * Each step's payload: what the envelope asks for next (next_action) and what the model needs to do
 * it. One function a step; payloadOf picks it. envelope.ts wraps the answer with phase and progress.
 */

/** The envelope's next_action and payload at one step. */
export interface StepPayload {
  next: NextAction;
  payload: Record<string, unknown>;
}

/** Abstracts in a screening batch are cut here (at a word), so a 25-item batch stays a few thousand tokens. */
export const SCREEN_ABSTRACT_CHARS = 320;
export const RANK_ABSTRACT_CHARS = 200;

/** What the envelope asks for next, and what the model needs to do it, at this step. */
export function payloadOf(state: ScanState, records: RecordBook, step: Step): StepPayload {
  switch (step.kind) {
    case "retrieve":
    case "feedback":
    case "expand":
    case "decide_gap":
    case "shortlist":
    case "give_up_round":
      return waitingPayload(state, step);
    case "round_failed":
      return roundFailedPayload(state, step);
    case "nothing_found":
      return nothingFoundPayload(state, step);
    case "stopped":
      return stoppedPayload(state, step);
    case "screen":
      return screenPayload(state, records, step);
    case "gap_queries":
      return gapPayload(state);
    case "rank":
      return rankPayload(state, records, step);
    case "verify":
      return verifyPayload(state);
    case "complete":
      return { next: "complete", payload: { ...(state.summary ?? {}), files: state.files } };
  }
}

/** resmon is working on the round (or expanding, deciding the gap, building the shortlist): await_retrieval with each retrieval's state. */
function waitingPayload(
  state: ScanState,
  step: Extract<
    Step,
    { kind: "retrieve" | "feedback" | "expand" | "decide_gap" | "shortlist" | "give_up_round" }
  >,
): StepPayload {
  const retry = step.kind === "retrieve" ? retryUnderWay(state, step.round) : null;
  return {
    next: "await_retrieval",
    payload: {
      round: step.kind === "retrieve" || step.kind === "give_up_round" ? step.round : null,
      retrieval: state.tasks
        .filter((t) => !("round" in step) || t.round === step.round)
        .map((t) => ({
          query_id: t.query_id,
          via: t.via,
          status: t.status,
          execution_id: t.execution_id,
          ...(t.error ? { error: t.error } : {}),
          ...(t.admission_wait_since ? { waiting_for_slot_since: t.admission_wait_since } : {}),
          ...(t.status === "pending" && t.retry_at ? { next_try_at: t.retry_at } : {}),
        })),
      ...(retry ? { retry } : {}),
      note: retry?.sends_at
        ? `The round's retrievals are sent again at ${retry.sends_at} (retry ${retry.attempt} of ${retry.of}); poll with scan_continue and no artifact.`
        : "resmon is working; poll with scan_continue and no artifact (scan_result reads without waiting).",
    },
  };
}

/** No retrieval of the round finished: retry_start, with the retry on offer. */
function roundFailedPayload(state: ScanState, step: Extract<Step, { kind: "round_failed" }>): StepPayload {
  return {
    next: "retry_start",
    payload: {
      round: step.round,
      failed: failedOf(state, step.round),
      retry: retryOffer(state, step.round),
      ...(step.round === 0 ? { options: stopOptions(state, true) } : {}),
      note: "No retrieval of this round finished. Send the same scan_start again: only the unfinished ones are sent again, once, after retry.wait_s.",
    },
  };
}

/** The first round found nothing and no source answered: retry_start, or another of the options. */
function nothingFoundPayload(state: ScanState, step: Extract<Step, { kind: "nothing_found" }>): StepPayload {
  return {
    next: "retry_start",
    payload: {
      round: step.round,
      found_nothing: `This scan found nothing: every sweep returned 0 papers and resmon recorded no source as answering (${riskWords(atRisk(tallySources(state.tasks, state.inputs.sources)))}). That is not evidence that there are no papers.`,
      ...nothingAnswered(state, step.round),
      retry: retryOffer(state, step.round),
      options: stopOptions(state, true),
      note: "Nothing goes on to screening or ranking from this round. Send the same scan_start again to send its sweeps once more (after retry.wait_s), or take another of options.",
    },
  };
}

/** The first round failed or found nothing again after its retry: choose_option. */
function stoppedPayload(state: ScanState, step: Extract<Step, { kind: "stopped" }>): StepPayload {
  return {
    next: "choose_option",
    payload: {
      round: step.round,
      stopped: stoppedWords(state, step.why),
      ...(step.why === "failed"
        ? { failed: failedOf(state, step.round) }
        : nothingAnswered(state, step.round)),
      options: stopOptions(state, false),
      note: "Take one of options: close needs no one; a new scan needs the person's approval first.",
    },
  };
}

/** A batch to screen, each item with how it was found. */
function screenPayload(
  state: ScanState,
  records: RecordBook,
  step: Extract<Step, { kind: "screen" }>,
): StepPayload {
  const total = state.batches.length;
  const byId = new Map(state.candidates.map((c) => [c.doc_id, c]));
  const found = step.batch.doc_ids.flatMap((id) => byId.get(id) ?? []);
  // Each item says how it was found; a batch of the expansion says so before anything else.
  const kind = batchKind(step.batch.round, found);
  const items = step.batch.doc_ids.map((id) => {
    const c = byId.get(id);
    const near = state.nearest?.[String(id)] ?? state.expansion?.nearest?.[String(id)];
    return {
      ...screenItem(records[id], id),
      found_by: c ? foundByLine(foundBy(c, state.tasks), near?.seed) : "",
      // An expansion paper: how close it is to the seed it came from, in resmon's distance.
      ...(near
        ? { seed: near.seed, distance: near.distance === null ? null : Number(near.distance.toFixed(3)) }
        : {}),
    };
  });
  // The criteria are the model's own plan: said with the first batch, named after it.
  const first = step.batch.index === 0;
  const score = `Score every item 0–3 with the criteria it meets${first ? "" : ` (${criteriaIds(state)}, as in your plan)`}. An abstract ending in … is cut at ${SCREEN_ABSTRACT_CHARS} characters.`;
  const stop = stopOfferWhy(state);
  const left = unscreenedIds(state).length;
  return {
    next: "screen_candidates",
    payload: {
      batch: { index: step.batch.index, of: total, round: step.batch.round, kind, items },
      ...(first ? { criteria: criteriaOf(state) } : {}),
      note: `${kind === "expansion" ? `${EXPANSION_BATCH_NOTE} ${score}` : score}${stop ? ` Your scores show nothing here (${stop}): you may stop screening, options[0].` : ""}`,
      ...(stop
        ? {
            options: [
              {
                option: "stop_screening",
                tool: "scan_continue",
                arguments: { scan_id: state.scan_id, stop_screening: true },
                needs_person: false,
                says: `Stop screening: the ${left} candidates left are not screened, no expansion or gap round follows, and the scan goes on to rank what scored 2 or more; with nothing, it finishes and its evidence says it found nothing and what was not screened.`,
              },
              {
                option: "go_on",
                tool: "scan_continue",
                arguments: null,
                needs_person: false,
                says: "Screen this batch: screen_scores for every item.",
              },
            ],
          }
        : {}),
    },
  };
}

/** The coverage so far, for the model to write gap queries (or skip the gap round). */
function gapPayload(state: ScanState): StepPayload {
  const cov = coverageOf(
    state.inputs.queries.criteria.map((c) => c.id),
    state.candidates,
    state.batches,
    state.tasks,
    state.inputs.sources,
  );
  return {
    next: "write_gap_queries",
    payload: {
      reasons: state.gap?.reasons ?? [],
      criteria: criteriaOf(state),
      coverage: {
        hits_per_criterion: cov.hits_per_criterion,
        thin_criteria: cov.thin_criteria,
        pool_per_query: cov.pool_per_query,
        silent_sources: cov.silent_sources,
      },
      note: "Send up to 8 gap_queries {text, criterion, kind?}, or [] to skip the gap round.",
    },
  };
}

/** One paper in a line: what the model needs to place it among the rest before it commits a rank. */
export function compactLine(
  record: PaperRecord | undefined,
  docId: number,
  score: ScreenScore | undefined,
): string {
  const year = yearOf(record?.publication_date);
  return [
    docId,
    score?.score ?? "-",
    (score?.criteria_hit ?? []).join(" ") || "-",
    year ?? "-",
    clip(record?.title ?? "", 90).text,
  ].join(" | ");
}

export const COMPACT_FORMAT = "doc_id | score | criteria | year | title";

/**
 * A page of the shortlist to rank, with each paper's screening score. The first page also carries
 * the rest of the shortlist one line a paper (so a rank is given knowing every paper it orders) and
 * what the bound left out (so the model can pull a paper in).
 */
function rankPayload(
  state: ScanState,
  records: RecordBook,
  step: Extract<Step, { kind: "rank" }>,
): StepPayload {
  const scores = scoresById(state.batches);
  const shortlist = state.shortlist;
  const outside = new Set(shortlist?.outside ?? []);
  const items = step.page.doc_ids.map((id) => {
    const s = scores.get(id);
    return {
      ...rankItem(records[id], id),
      score: s?.score ?? null,
      criteria_hit: s?.criteria_hit ?? [],
      ...(s?.reason ? { reason: clip(s.reason, 160).text } : {}),
      ...(outside.has(id) ? { out_of_window: true } : {}),
    };
  });
  const total = state.pages.reduce((n, p) => n + p.doc_ids.length, 0);
  const first = step.page.index === 0;
  const others = state.pages.filter((p) => p !== step.page).flatMap((p) => p.doc_ids);
  const leftOut = shortlist?.left_out ?? [];
  const byScore: Record<string, number> = {};
  for (const id of leftOut) {
    const k = String(scores.get(id)?.score ?? 0);
    byScore[k] = (byScore[k] ?? 0) + 1;
  }
  const best = Math.max(0, ...[...scores.values()].map((s) => s.score));
  const leftTop = leftOut.filter((id) => scores.get(id)?.score === best);
  const limit = shortlist?.limit ?? total;
  const leftWords = leftOut.length
    ? ` ${leftOut.length} papers scored 2 or more are not on the shortlist (at most 2 × top + 10 = ${limit} are ranked): left_out. To bring one in, add it to ranked_entries of this or a later page with its rank.`
    : "";
  return {
    next: "rank_shortlist",
    payload: {
      page: { index: step.page.index, of: state.pages.length, size: PAGE_SIZE, items },
      shortlisted: { in_window: shortlist?.in_window.length ?? 0, outside: outside.size, total },
      ...(first && others.length
        ? {
            overview: {
              format: COMPACT_FORMAT,
              lines: others.map((id) => compactLine(records[id], id, scores.get(id))),
            },
          }
        : {}),
      ...(leftOut.length
        ? {
            left_out: {
              count: leftOut.length,
              by_score: byScore,
              ...(first
                ? {
                    top_score: best,
                    doc_ids: leftTop,
                    // One line each for the best `top` of them; the rest by id.
                    lines: leftTop
                      .slice(0, state.inputs.top)
                      .map((id) => compactLine(records[id], id, scores.get(id))),
                  }
                : {}),
            },
          }
        : {}),
      top: state.inputs.top,
      foundational: state.inputs.foundational,
      note: `Rank every paper of this page: {doc_id, rank, role?, why?, cite?}. A rank orders the whole shortlist: 1 is the best of all ${total}${first && others.length ? " (overview lists the other pages' papers, one line each; their full records come on their pages)" : ""}. cite is what you intend to cite; verification compares it with resmon's record.${leftWords}`,
    },
  };
}

/** Everything is ranked: verify (or verification is under way). */
function verifyPayload(state: ScanState): StepPayload {
  const ranked = state.pages.reduce((n, p) => n + (p.entries?.length ?? 0), 0);
  const checked = state.checks ? Object.keys(state.checks.lifecycle).length : 0;
  // A shortlist of none is said, never passed on as "every paper is ranked".
  const none = state.pages.length === 0;
  return {
    next: "verify_ranked",
    payload: {
      ...(none ? { found_nothing: nothingToRank(state) } : {}),
      ranked,
      ...(state.checks ? { checked } : {}),
      note: none
        ? "Nothing to rank. Call scan_verify to write evidence that says what was searched and what was not answered."
        : state.checks
          ? `Verification is under way (${checked} of ${ranked} papers checked). Call scan_verify again.`
          : "Every shortlisted paper is ranked. Call scan_verify.",
    },
  };
}

/**
 * A paper as the model reads it to judge it: title, authors, year and the abstract (cut at a word,
 * ending in … when cut). Nothing a judgement does not use: not which source's copy this is, not the
 * DOI (the shortlist pages carry it, for citing).
 */
function screenItem(record: PaperRecord | undefined, docId: number) {
  return {
    doc_id: docId,
    title: record?.title ?? null,
    authors: shortAuthors(record?.authors),
    year: yearOf(record?.publication_date),
    abstract: clip(record?.abstract, SCREEN_ABSTRACT_CHARS).text,
  };
}

/** A paper on a shortlist page: what screening showed, with a shorter abstract and the DOI to cite. */
function rankItem(record: PaperRecord | undefined, docId: number) {
  return {
    doc_id: docId,
    title: record?.title ?? null,
    authors: shortAuthors(record?.authors),
    year: yearOf(record?.publication_date),
    doi: record?.doi ?? null,
    abstract: clip(record?.abstract, RANK_ABSTRACT_CHARS).text,
  };
}

function criteriaOf(state: ScanState) {
  return state.inputs.queries.criteria.map((c) => ({ id: c.id, text: c.text }));
}

function criteriaIds(state: ScanState): string {
  return state.inputs.queries.criteria.map((c) => c.id).join(", ");
}

/** Each retrieval of the round, with the error that ended it. */
function failedOf(state: ScanState, round: number) {
  return state.tasks
    .filter((t) => t.round === round)
    .map((t) => ({ query_id: t.query_id, via: t.via, execution_id: t.execution_id, error: t.error ?? null }));
}

/** The sources resmon did not record as answering, in its words, and each sweep's coverage. */
function nothingAnswered(state: ScanState, round: number) {
  const risky = atRisk(tallySources(state.tasks, state.inputs.sources));
  return {
    sources_not_answered: risky.map((t) => ({
      source: t.source,
      sweeps: t.sweeps,
      non_answer: t.non_answer,
      unknown: t.unknown,
      not_reported: t.not_reported,
      labels: t.labels,
      zero_reasons: t.zero_reasons,
      notes: t.notes,
    })),
    sweeps: state.tasks
      .filter((t) => t.round === round && t.via === "sweep")
      .map((t) => ({
        query_id: t.query_id,
        execution_id: t.execution_id,
        coverage: t.coverage?.reported === false ? "not_reported" : (t.coverage?.summary ?? null),
      })),
  };
}

/** Why a scan has no paper to rank, in a sentence: no candidates (and which sources did not answer), or none scored 2+. */
export function nothingToRank(state: ScanState): string {
  const risky = atRisk(tallySources(state.tasks, state.inputs.sources));
  const sweeps = state.tasks.filter((t) => t.via === "sweep" && t.status === "done");
  const sources = risky.length
    ? ` Sources resmon did not record as answering: ${riskWords(risky)}.`
    : sweeps.length
      ? ` ${allAnsweredWords(sweeps.map((t) => t.doc_ids?.length ?? 0))}`
      : "";
  if (state.candidates.length === 0) {
    const rows = state.tasks.reduce((n, t) => n + (t.doc_ids?.length ?? 0), 0);
    const n = state.tasks.length;
    const failed = state.tasks.filter((t) => t.status !== "done").length;
    const what =
      rows > 0
        ? `its retrievals returned ${rows} rows, none within the window and must_not filters`
        : failed === n
          ? `none of its ${n} retrievals finished`
          : failed > 0
            ? `${failed} of its ${n} retrievals did not finish and the rest returned 0 papers`
            : `every one of its ${n} retrievals returned 0 papers`;
    return `This scan found nothing: ${what}.${sources}`;
  }
  const screened = state.batches.reduce((n, b) => n + (b.scores?.length ?? 0), 0);
  const stopped = state.screening_stopped ? ` ${screeningStoppedWords(state)}` : "";
  return `This scan found nothing to rank: none of the ${screened} screened candidates scored 2 or more.${stopped}${sources}`;
}
