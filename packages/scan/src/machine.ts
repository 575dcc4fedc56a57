import type { NextAction, ScanEnvelope } from "@resmon/mcp-contract";
import { ToolError } from "@resmon/mcp-contract";
import type { Call } from "./call.js";
import { coverageOf, gapDecision, roundFoundNothing } from "./coverage.js";
import { envelopeOf } from "./envelope.js";
import { feedbackRound, notePages, queryPage, rankSweepRows, screenBudget, screenRoom } from "./feedback.js";
import { neighbourList } from "./neighbours.js";
import { applyUpdates, chunk, outsideWindow, pool } from "./pool.js";
import { BATCH_SIZE, EXPANSION_K, EXPANSION_SEEDS, PROFILES } from "./profile.js";
import { similarTo } from "./resmon.js";
import { retrievalPass } from "./retrieval.js";
import { buildShortlist, scoresById, shortlistPages } from "./shortlist.js";
import type { Batch, Candidate, ScanState } from "./state.js";
import { nextStep, retriesLeft } from "./steps.js";
import { retryOffer, stopOptions } from "./stop.js";

/**
 * No retrieval of the round finished: the caller sends the same scan_start again while a retry is
 * left, else chooses among the options (the round is not sent again).
 */
export function roundFailedError(state: ScanState): ToolError {
  const at = state.retrieving ?? 0;
  const round = state.tasks.filter((t) => t.round === at);
  const retry = retriesLeft(state, at) > 0;
  return new ToolError(
    "upstream_error",
    retry
      ? "No retrieval of this round finished; send the same scan_start again: they are sent once more, after detail.retry.wait_s."
      : "No retrieval of this round finished, the first time or on its retry; it is not sent again: take one of detail.options.",
    {
      stage: "retrieve",
      next_action: retry ? "retry_start" : "choose_option",
      failed: round.map((t) => ({ query_id: t.query_id, via: t.via, error: t.error ?? null })),
      ...(retry ? { retry: retryOffer(state, at) } : {}),
      ...(at === 0 ? { options: stopOptions(state, retry) } : {}),
    },
  );
}

/** A gap round that failed again after its retry: the scan goes on without it, and says so. */
function giveUpRound(call: Call, round: number): void {
  const state = call.state;
  state.retrieving = null;
  state.round_failed = false;
  state.given_up = [...(state.given_up ?? []), round];
  call.save();
}

export function nextActionOf(state: ScanState): NextAction {
  return envelopeOf(state, {}).next_action;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

function addBatches(state: ScanState, added: Candidate[], round: number): void {
  const first = state.batches.length;
  chunk(added, BATCH_SIZE).forEach((ids, i) => {
    const batch: Batch = {
      index: first + i,
      round,
      doc_ids: ids.map((c) => c.doc_id),
      accepted_hash: null,
      scores: null,
    };
    for (const c of ids) c.batch = batch.index;
    state.batches.push(batch);
  });
  state.candidates.push(...added);
}

/** A finished round: pool what it found into new screening batches. */
function poolRound(call: Call, round: number): void {
  const state = call.state;
  const inputs = state.inputs;
  const queries =
    round === 0
      ? inputs.queries.queries.map((q) => ({ id: q.id, must_not: q.must_not }))
      : state.tasks
          .filter((t) => t.round === round)
          .map((t) => ({ id: t.query_id, must_not: [] as string[] }))
          .filter((q, i, all) => all.findIndex((x) => x.id === q.id) === i);
  const lists = queries.map((q) => ({
    ...q,
    doc_ids: state.tasks
      .filter((t) => t.round === round && t.query_id === q.id && t.status === "done")
      .sort((a, b) => (a.via === b.via ? 0 : a.via === "sweep" ? -1 : 1))
      .flatMap((t) => t.doc_ids ?? []),
  }));
  const inWindow = state.candidates.filter((c) => !c.out_of_window).length;
  // Each query's first page only: deeper pages follow where the model's scores show papers (feedback.ts).
  const out = pool({
    queries: lists,
    records: call.records,
    window: { since: inputs.since, until: inputs.until },
    perQuery: Math.min(queryPage(state), inputs.per_query),
    // The screening budget holds for every round: the gap round's pages take the batch held for them.
    cap: Math.max(
      0,
      Math.min(inputs.max_candidates - inWindow, screenBudget(state) - state.candidates.length),
    ),
    existing: state.candidates,
    origin: round === 0 ? "retrieval" : "gap",
    firstBatch: state.batches.length,
    batchSize: BATCH_SIZE,
  });
  applyUpdates(state, out.updated);
  addBatches(state, out.added, round);
  notePages(state, round, out.credited);
  state.retrieving = null;
  call.save();
}

/** "More like this" from the best-scored seeds; out-of-window papers are tagged; an empty answer is an empty expansion. */
async function expand(call: Call): Promise<void> {
  const state = call.state;
  const lack = (await call.serves("expand")).similar;
  if (lack) {
    // This resmon has no similar-papers route: nothing is asked, and the expansion says why.
    state.expansion = { seeds: [], added: [], empty: [], failed: [], not_asked: lack.message };
    call.save();
    return;
  }
  const scores = scoresById(state.batches);
  const seeds = state.candidates
    .filter((c) => (scores.get(c.doc_id)?.score ?? 0) >= 2)
    .sort(
      (a, b) =>
        (scores.get(b.doc_id)?.score ?? 0) - (scores.get(a.doc_id)?.score ?? 0) ||
        (scores.get(b.doc_id)?.criteria_hit.length ?? 0) - (scores.get(a.doc_id)?.criteria_hit.length ?? 0) ||
        a.doc_id - b.doc_id,
    )
    .slice(0, EXPANSION_SEEDS)
    .map((c) => c.doc_id);
  const expansion: NonNullable<ScanState["expansion"]> = { seeds, added: [], empty: [], failed: [] };
  const lists: { id: string; must_not: string[]; doc_ids: number[] }[] = [];
  const nearest: NonNullable<ScanState["expansion"]>["nearest"] & object = {};
  if (seeds.length) {
    for (const seed of seeds) {
      const res = await similarTo(call, seed, EXPANSION_K);
      // resmon down or restarted: try the expansion again on the next call rather than skip it.
      if (!res.ok && res.error.code === "backend_unavailable") throw res.error;
      if (!res.ok) expansion.failed.push({ doc_id: seed, error: res.error.message });
      else if (res.records.length === 0) expansion.empty.push({ doc_id: seed, reason: res.reason });
      else lists.push(neighbourList(call, state, seed, res, nearest));
    }
  }
  const inputs = state.inputs;
  const window = { since: inputs.since, until: inputs.until };
  const out = pool({
    queries: lists,
    records: call.records,
    window: { since: null, until: null },
    perQuery: EXPANSION_K,
    cap: Number.MAX_SAFE_INTEGER,
    existing: state.candidates,
    origin: "expansion",
    firstBatch: state.batches.length,
    batchSize: BATCH_SIZE,
  });
  // The screening budget holds here too, for papers outside the window as well: expansion adds no
  // more than is left of it (less the gap round's hold), outside papers also within their slots.
  let room = screenRoom(state);
  let roomIn = Math.max(0, inputs.max_candidates - state.candidates.filter((c) => !c.out_of_window).length);
  let roomOut = Math.max(
    0,
    PROFILES[inputs.profile].outsideSlots - state.candidates.filter((c) => c.out_of_window).length,
  );
  const added: Candidate[] = [];
  for (const c of out.added) {
    if (room <= 0) break;
    const record = call.records[c.doc_id];
    const outside = record ? outsideWindow(record, window) : false;
    if (outside ? roomOut-- <= 0 : roomIn-- <= 0) continue;
    room--;
    added.push({ ...c, out_of_window: outside });
  }
  applyUpdates(state, out.updated);
  addBatches(state, added, 0);
  expansion.added = added.map((c) => c.doc_id);
  expansion.nearest = Object.fromEntries(
    added.flatMap((c) => {
      const near = nearest[String(c.doc_id)];
      return near ? [[String(c.doc_id), near]] : [];
    }),
  );
  state.expansion = expansion;
  call.save();
}

function decideGap(call: Call): void {
  const state = call.state;
  const criteria = state.inputs.queries.criteria.map((c) => c.id);
  const coverage = coverageOf(criteria, state.candidates, state.batches, state.tasks, state.inputs.sources);
  let decision = gapDecision(
    PROFILES[state.inputs.profile].gap,
    state.inputs.force_gap_round,
    coverage,
    state.inputs.queries.queries.map((q) => q.id),
  );
  // A budget spent before the gap round (a max_candidates of one batch) leaves its pages no room:
  // the model is not asked for queries whose papers could not be screened.
  const room = screenBudget(state) - state.candidates.length;
  if (decision.needed && room <= 0)
    decision = {
      needed: false,
      reasons: [
        ...decision.reasons,
        `No gap round: the screening budget (${screenBudget(state)} papers) is spent, so its papers could not be screened.`,
      ],
    };
  state.gap = { needed: decision.needed, reasons: decision.reasons, queries: null, accepted_hash: null };
  call.save();
}

function makeShortlist(call: Call): void {
  const state = call.state;
  state.shortlist = buildShortlist(state.candidates, scoresById(state.batches), {
    top: state.inputs.top,
    foundational: state.inputs.foundational,
  });
  state.pages = shortlistPages(state.shortlist).map((doc_ids, index) => ({
    index,
    doc_ids,
    accepted_hash: null,
    entries: null,
  }));
  call.save();
}

/**
 * Run the deterministic steps until the model must decide or the wait budget is spent
 * (then await_retrieval). Never blocks past the deadline.
 */
export async function advance(call: Call): Promise<ScanEnvelope> {
  for (;;) {
    const step = nextStep(call.state);
    switch (step.kind) {
      case "retrieve": {
        const finished = await retrievalPass(call, step.round);
        if (finished) {
          const round = call.state.tasks.filter((t) => t.round === step.round);
          // A round stands on its sweeps when it has any (corpus rows alone are not a sweep that finished).
          const decisive = round.some((t) => t.via === "sweep")
            ? round.filter((t) => t.via === "sweep")
            : round;
          if (decisive.some((t) => t.status === "done")) {
            // Nothing found and no source recorded as answering: not pooled; the next step says so.
            if (step.round === 0 && roundFoundNothing(call.state.tasks, call.state.inputs.sources)) {
              call.state.retry_wait_ms = call.retryWaitMs;
              call.save();
              return envelopeOf(call.state, call.records);
            }
            await rankSweepRows(call, step.round);
            poolRound(call, step.round);
            continue;
          }
          call.state.round_failed = true;
          call.state.retry_wait_ms = call.retryWaitMs;
          call.save();
          // A gap round with no retry left is given up on the next step, and the scan goes on.
          if (nextStep(call.state).kind === "give_up_round") continue;
          throw roundFailedError(call.state);
        }
        const left = call.remainingMs();
        if (left <= 0) return envelopeOf(call.state, call.records);
        await sleep(Math.min(call.pollMs, left));
        continue;
      }
      case "feedback":
        await feedbackRound(call, (added) => addBatches(call.state, added, 0));
        continue;
      case "expand":
        await expand(call);
        continue;
      case "decide_gap":
        decideGap(call);
        continue;
      case "shortlist":
        makeShortlist(call);
        continue;
      case "give_up_round":
        giveUpRound(call, step.round);
        continue;
      default:
        return envelopeOf(call.state, call.records);
    }
  }
}
