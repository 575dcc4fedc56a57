import type { ScanPhase } from "@resmon/mcp-contract";
import { roundFoundNothing } from "./coverage.js";
import { feedbackDue } from "./feedback.js";
import { MAX_ROUND_RETRIES } from "./profile.js";
import type { Batch, Page, ScanState } from "./state.js";

/** What the scan needs next, read from its state alone (so scan_result and every call agree). */
export type Step =
  | { kind: "retrieve"; round: number }
  /** No retrieval of the round finished; it may be sent again (retry_start). */
  | { kind: "round_failed"; round: number }
  /** The first round found nothing and resmon recorded no source as answering; it may be sent again. */
  | { kind: "nothing_found"; round: number }
  /** The first round failed or found nothing again after its retry: it is not sent again; the caller chooses. */
  | { kind: "stopped"; round: 0; why: "failed" | "nothing" }
  /** A gap round that failed again after its retry: given up, and the scan goes on without it. */
  | { kind: "give_up_round"; round: number }
  | { kind: "screen"; batch: Batch }
  /** Deeper pages and neighbours where the model scored 3 (feedback.ts). */
  | { kind: "feedback" }
  | { kind: "expand" }
  | { kind: "decide_gap" }
  | { kind: "gap_queries" }
  | { kind: "shortlist" }
  | { kind: "rank"; page: Page }
  | { kind: "verify" }
  | { kind: "complete" };

export function nextStep(state: ScanState): Step {
  // Complete once the evidence files are written (verification's last step): nothing else says so.
  if (state.files !== null) return { kind: "complete" };
  if (state.retrieving !== null) {
    const round = state.retrieving;
    const why = state.round_failed
      ? "failed"
      : round === 0 && roundFoundNothing(state.tasks, state.inputs.sources)
        ? "nothing"
        : null;
    if (why === null) return { kind: "retrieve", round };
    if (retriesLeft(state, round) > 0)
      return { kind: why === "failed" ? "round_failed" : "nothing_found", round };
    return round === 0 ? { kind: "stopped", round, why } : { kind: "give_up_round", round };
  }
  const open = state.batches.find((b) => b.accepted_hash === null && !b.skipped);
  if (open) return { kind: "screen", batch: open };
  // Feedback runs to the budget less the gap round's hold, then on what the settled gap round left.
  if (feedbackDue(state) && state.shortlist === null) return { kind: "feedback" };
  if (state.expansion === null) return { kind: "expand" };
  if (state.gap === null) return { kind: "decide_gap" };
  if (state.gap.needed && state.gap.queries === null) return { kind: "gap_queries" };
  if (state.shortlist === null) return { kind: "shortlist" };
  const page = state.pages.find((p) => p.accepted_hash === null);
  if (page) return { kind: "rank", page };
  return { kind: "verify" };
}

/** How many more times the round's retrievals may be sent again. */
export function retriesLeft(state: ScanState, round: number): number {
  return Math.max(0, MAX_ROUND_RETRIES - (state.retries?.[String(round)] ?? 0));
}

/**
 * The phase a person sees, read from the state like the step (never stored, so the two cannot
 * disagree): retrieval of round 0, screening it and its expansion, the gap round (its queries, its
 * retrieval and its screening), ranking and verification, complete.
 */
export function phaseOf(state: ScanState, step: Step = nextStep(state)): ScanPhase {
  switch (step.kind) {
    case "retrieve":
    case "round_failed":
    case "nothing_found":
    case "stopped":
    case "give_up_round":
      return step.round === 0 ? "retrieve" : "gap";
    case "screen":
      return step.batch.round > 0 || state.gap?.needed ? "gap" : "screen";
    case "feedback":
    case "expand":
    case "decide_gap":
      return "screen";
    case "gap_queries":
      return "gap";
    case "shortlist":
      return state.gap?.needed ? "gap" : "screen";
    case "rank":
    case "verify":
      return "rank";
    case "complete":
      return "complete";
  }
}
