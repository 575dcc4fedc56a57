/** Accepting the model's artifacts: each must fit what the scan asked for; an accepted one is final (replayed or refused). */

import type { GapQuery, RankedEntry, ScanEnvelope, ScreenScore } from "@resmon/mcp-contract";
import { ToolError } from "@resmon/mcp-contract";
import {
  alreadyAccepted,
  artifactHash,
  badArtifact,
  checkRankedPage,
  checkScreenScores,
  wrongPhase,
} from "./artifacts.js";
import type { Call } from "./call.js";
import { envelopeOf } from "./envelope.js";
import { advance, nextActionOf } from "./machine.js";
import { planTasks } from "./retrieval.js";
import { stopOfferWhy, unscreenedIds } from "./screening.js";
import { scoresById } from "./shortlist.js";
import type { Batch, Page, ScanState } from "./state.js";
import { nextStep as nextStepOf, type Step } from "./steps.js";
import { runVerification } from "./verify-run.js";

export function cleanScores(scores: readonly ScreenScore[]): ScreenScore[] {
  return scores.map((s) => ({
    doc_id: s.doc_id,
    score: s.score,
    criteria_hit: [...new Set(s.criteria_hit ?? [])].sort(),
    ...(s.reason !== undefined ? { reason: s.reason } : {}),
  }));
}

export function cleanEntries(entries: readonly RankedEntry[]): RankedEntry[] {
  return entries.map((e) => {
    const out: RankedEntry = { doc_id: e.doc_id, rank: e.rank };
    if (e.role !== undefined) out.role = e.role;
    if (e.why !== undefined) out.why = e.why;
    if (e.cite !== undefined) {
      out.cite = {};
      for (const k of ["doi", "title", "year", "first_author"] as const) {
        if (e.cite[k] !== undefined) (out.cite as Record<string, unknown>)[k] = e.cite[k];
      }
    }
    return out;
  });
}

/** The step an artifact answers, or the wrong-phase refusal when the scan is asking for something else. */
function expectStep<K extends Step["kind"]>(
  state: ScanState,
  kind: K,
  artifact: string,
): Extract<Step, { kind: K }> {
  const step = nextStepOf(state);
  if (step.kind === kind) return step as Extract<Step, { kind: K }>;
  if (step.kind === "complete") throw wrongPhase("This scan is complete and takes nothing new.", "complete");
  throw wrongPhase(`The scan is not asking for ${artifact} now.`, nextActionOf(state));
}

/** The accepted batch or page every sent id belongs to, if they all belong to one. */
function acceptedHolder<T extends { doc_ids: number[]; accepted_hash: string | null }>(
  holders: readonly T[],
  ids: readonly number[],
): T | undefined {
  if (ids.length === 0) return undefined;
  const h = holders.find((x) => x.accepted_hash !== null && x.doc_ids.includes(ids[0] as number));
  return h && ids.every((id) => h.doc_ids.includes(id)) ? h : undefined;
}

export async function acceptScreen(call: Call, scores: ScreenScore[]): Promise<ScanEnvelope> {
  const state = call.state;
  const hash = artifactHash(scores);
  const held = acceptedHolder(
    state.batches,
    scores.map((s) => s.doc_id),
  );
  if (held?.accepted_hash === hash) return envelopeOf(state, call.records, { replayed: true });
  // Ids all screened already: a correction of slips (with reasons) while the shortlist is not built.
  const accepted = scoresById(state.batches);
  if (scores.length && scores.every((s) => accepted.has(s.doc_id))) return correctScores(call, scores, held);
  const step = expectStep(state, "screen", "screen_scores");
  checkScreenScores(
    step.batch.doc_ids,
    scores,
    state.inputs.queries.criteria.map((c) => c.id),
  );
  step.batch.scores = scores;
  step.batch.accepted_hash = hash;
  call.working({ kind: "screen" });
  call.save();
  return advance(call);
}

const sameScore = (a: ScreenScore, b: ScreenScore) =>
  a.score === b.score && a.criteria_hit.join(" ") === b.criteria_hit.join(" ");

/**
 * Scores for papers already screened. Before the shortlist is built, each changed score that carries
 * a reason is a correction: recorded (state.corrections, evidence.json) and applied. Unchanged ones
 * are a replay; a changed one with no reason is the changed resend an accepted batch refuses; after
 * the shortlist is built screening is closed.
 */
function correctScores(call: Call, scores: ScreenScore[], held: Batch | undefined): ScanEnvelope {
  const state = call.state;
  const accepted = scoresById(state.batches);
  const changed = scores.filter((s) => !sameScore(s, accepted.get(s.doc_id) as ScreenScore));
  const next = nextActionOf(state);
  const wholeBatch = held !== undefined && held.doc_ids.length === scores.length;
  // The whole batch sent again, changed: the changed resend an accepted batch refuses (a correction
  // names only the papers it corrects).
  if (wholeBatch && changed.length) {
    const refusal = alreadyAccepted("screening batch", held.index, next);
    if (state.shortlist === null)
      refusal.message +=
        " To correct a slip before the shortlist is built, send only those ids, each with its new score and a reason.";
    throw refusal;
  }
  if (state.shortlist !== null) {
    if (nextStepOf(state).kind === "complete")
      throw wrongPhase("This scan is complete and takes nothing new.", "complete");
    throw wrongPhase(
      `Screening is closed: the shortlist was built from the accepted scores, so no score is taken now (a slip can be corrected only before then). The scan asks for ${next}.`,
      next,
    );
  }
  // Unchanged: a correction (or a batch) already taken, sent again.
  if (changed.length === 0) return envelopeOf(state, call.records, { replayed: true });
  const unexplained = changed.filter((s) => !s.reason?.trim());
  if (unexplained.length) {
    throw new ToolError(
      "invalid_argument",
      "To correct a score already accepted, send only the ids to correct, each with its new score and a reason; these changed scores have no reason (detail.ids).",
      {
        reason: "correction_needs_reason",
        field: "screen_scores.reason",
        ids: unexplained.map((s) => s.doc_id),
        next_action: next,
      },
    );
  }
  checkScreenScores(
    changed.map((s) => s.doc_id),
    changed,
    state.inputs.queries.criteria.map((c) => c.id),
  );
  const at = call.now().toISOString();
  state.corrections ??= [];
  const corrections = state.corrections;
  for (const s of changed) {
    const before = accepted.get(s.doc_id) as ScreenScore;
    const batch = state.batches.find((b) => b.scores?.some((x) => x.doc_id === s.doc_id)) as Batch;
    batch.scores = (batch.scores ?? []).map((x) => (x.doc_id === s.doc_id ? s : x));
    batch.accepted_hash = artifactHash(batch.scores);
    corrections.push({
      doc_id: s.doc_id,
      from: { score: before.score, criteria_hit: before.criteria_hit },
      to: { score: s.score, criteria_hit: s.criteria_hit },
      reason: s.reason as string,
      at,
    });
  }
  call.save();
  const envelope = envelopeOf(state, call.records);
  envelope.payload.corrected = changed.map((s) => ({
    doc_id: s.doc_id,
    from: (accepted.get(s.doc_id) as ScreenScore).score,
    to: s.score,
  }));
  return envelope;
}

export async function acceptGap(call: Call, queries: GapQuery[]): Promise<ScanEnvelope> {
  const state = call.state;
  const clean = queries.map((q) => ({
    text: q.text,
    criterion: q.criterion,
    ...(q.kind ? { kind: q.kind } : {}),
  }));
  const hash = artifactHash(clean.map((q, i) => ({ doc_id: i, ...q })));
  if (state.gap?.accepted_hash) {
    if (state.gap.accepted_hash === hash) return envelopeOf(state, call.records, { replayed: true });
    throw alreadyAccepted("gap query list", null, nextActionOf(state));
  }
  expectStep(state, "gap_queries", "gap_queries");
  const known = new Set(state.inputs.queries.criteria.map((c) => c.id));
  const bad = [...new Set(clean.filter((q) => !known.has(q.criterion)).map((q) => q.criterion))];
  if (clean.length > 8) {
    throw new ToolError("invalid_argument", "At most 8 gap queries; send 8 or fewer ([] skips the round).", {
      field: "gap_queries",
      reason: "bad_artifact",
      next_action: "write_gap_queries",
    });
  }
  if (bad.length || clean.some((q) => typeof q.text !== "string" || q.text.trim() === "")) {
    throw badArtifact(
      "gap query list",
      { missing_ids: [], unknown_ids: [], duplicate_ids: [], bad_criteria: bad },
      { next_action: "write_gap_queries" },
    );
  }
  const gap = state.gap as NonNullable<ScanState["gap"]>;
  gap.queries = clean;
  gap.accepted_hash = hash;
  if (clean.length > 0) {
    const planned = clean.map((q, i) => ({ id: `G${i + 1}`, text: q.text }));
    state.tasks.push(...planTasks(1, planned, state.inputs.retrieval));
    state.retrieving = 1;
  }
  call.save();
  return advance(call);
}

export async function acceptRanked(call: Call, entries: RankedEntry[]): Promise<ScanEnvelope> {
  const state = call.state;
  const hash = artifactHash(entries);
  const held = acceptedHolder(
    state.pages,
    entries.map((e) => e.doc_id),
  );
  if (held) {
    if (held.accepted_hash === hash) return envelopeOf(state, call.records, { replayed: true });
    throw alreadyAccepted("shortlist page", held.index, nextActionOf(state));
  }
  const step = expectStep(state, "rank", "ranked_entries");
  // Papers the bound left out that the model was shown (left_out on the first page) may be pulled in.
  const pulled = pullable(state, entries, step.page);
  const ids = [...step.page.doc_ids, ...pulled];
  checkRankedPage(ids, entries, ranksTaken(state.pages, step.page), shortlistSize(state) + pulled.length);
  if (pulled.length) {
    const shortlist = state.shortlist as NonNullable<ScanState["shortlist"]>;
    step.page.doc_ids = ids;
    shortlist.pulled_in = [...(shortlist.pulled_in ?? []), ...pulled];
    shortlist.left_out = (shortlist.left_out ?? []).filter((id) => !pulled.includes(id));
  }
  acceptPage(step.page, entries, hash);
  call.save();
  return advance(call);
}

/**
 * The entries' papers that are not on the page but were left out by the shortlist's bound at the
 * top score, which the first page listed: the model brings them into the ranking.
 */
function pullable(state: ScanState, entries: readonly RankedEntry[], page: Page): number[] {
  const first = state.pages[0];
  if (!first?.shown && page.index !== 0) return [];
  const scores = scoresById(state.batches);
  const best = Math.max(0, ...[...scores.values()].map((s) => s.score));
  const offered = new Set((state.shortlist?.left_out ?? []).filter((id) => scores.get(id)?.score === best));
  return [
    ...new Set(entries.map((e) => e.doc_id).filter((id) => !page.doc_ids.includes(id) && offered.has(id))),
  ];
}

/** How many papers the shortlist holds: the highest rank there is. */
function shortlistSize(state: ScanState): number {
  return state.pages.reduce((n, p) => n + p.doc_ids.length, 0);
}

/** The ranks the other accepted pages hold (rank → doc id): a rank orders the whole shortlist. */
function ranksTaken(pages: readonly Page[], except: Page): Map<number, number> {
  const taken = new Map<number, number>();
  for (const p of pages) if (p !== except) for (const e of p.entries ?? []) taken.set(e.rank, e.doc_id);
  return taken;
}

function acceptPage(page: Page, entries: RankedEntry[], hash: string): void {
  const order = new Map(page.doc_ids.map((id, i) => [id, i]));
  page.entries = [...entries].sort((a, b) => (order.get(a.doc_id) ?? 0) - (order.get(b.doc_id) ?? 0));
  page.accepted_hash = hash;
}

/** Entries sent with scan_verify: merged page by page; an accepted page must match exactly. */
export function mergeFinalEntries(state: ScanState, entries: RankedEntry[]): { replayOnly: boolean } {
  const pageOf = new Map<number, Page>();
  for (const p of state.pages) for (const id of p.doc_ids) pageOf.set(id, p);
  const unknown = entries.filter((e) => !pageOf.has(e.doc_id)).map((e) => e.doc_id);
  if (unknown.length) {
    throw badArtifact(
      "ranked entry list",
      { missing_ids: [], unknown_ids: unknown, duplicate_ids: [], bad_criteria: [] },
      { next_action: nextActionOf(state) },
    );
  }
  const byPage = new Map<Page, RankedEntry[]>();
  for (const e of entries) {
    const p = pageOf.get(e.doc_id) as Page;
    byPage.set(p, [...(byPage.get(p) ?? []), e]);
  }
  let replayOnly = true;
  for (const [page, list] of byPage) {
    if (page.accepted_hash !== null) {
      const accepted = new Map((page.entries ?? []).map((e) => [e.doc_id, artifactHash([e])]));
      if (list.some((e) => accepted.get(e.doc_id) !== artifactHash([e])))
        throw alreadyAccepted("shortlist page", page.index, nextActionOf(state));
      continue;
    }
    checkRankedPage(page.doc_ids, list, ranksTaken(state.pages, page), shortlistSize(state));
    acceptPage(page, list, artifactHash(list));
    replayOnly = false;
  }
  return { replayOnly };
}

/**
 * The model takes the offer to stop screening (stopOfferWhy): the batches left go unscreened, no
 * expansion or gap round follows, and the scan goes on to what was scored; with nothing to rank it
 * is finished at once, its evidence saying what was and was not screened.
 */
export async function acceptStop(call: Call): Promise<ScanEnvelope> {
  const state = call.state;
  if (state.screening_stopped) return envelopeOf(state, call.records, { replayed: true });
  expectStep(state, "screen", "stop_screening");
  const why = stopOfferWhy(state);
  if (!why) {
    throw new ToolError(
      "invalid_argument",
      "Stopping screening is not on offer now: it is offered (payload.options) when the scores show nothing, two batches in a row with nothing scored 2 or more, or an expansion batch scored all 0. Screen this batch.",
      { field: "stop_screening", reason: "not_offered", next_action: "screen_candidates" },
    );
  }
  const unscreened = unscreenedIds(state);
  for (const b of state.batches) if (b.accepted_hash === null) b.skipped = true;
  state.screening_stopped = { at: call.now().toISOString(), why, unscreened };
  state.expansion ??= {
    seeds: [],
    added: [],
    empty: [],
    failed: [],
    not_asked: "Screening was stopped before the expansion.",
  };
  state.gap ??= {
    needed: false,
    reasons: ["Screening was stopped: no gap round."],
    queries: null,
    accepted_hash: null,
  };
  call.save();
  const envelope = await advance(call);
  if (nextStepOf(state).kind === "verify" && state.pages.length === 0) {
    await runVerification(call);
    return envelopeOf(call.state, call.records);
  }
  return envelope;
}
