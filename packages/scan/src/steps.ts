import type { ScanPhase } from "@resmon/mcp-contract";
import { roundFoundNothing } from "./coverage.js";
import type { Batch, Page, ScanState } from "./state.js";

/** What the scan needs next, read from its state alone (so scan_result and every call agree). */
export type Step =
  | { kind: "retrieve"; round: number }
  | { kind: "round_failed"; round: number }
  /** The first round found nothing and resmon recorded no source as answering: said, with the way on. */
  | { kind: "nothing_found"; round: number }
  | { kind: "screen"; batch: Batch }
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
    if (state.round_failed) return { kind: "round_failed", round: state.retrieving };
    if (state.retrieving === 0 && roundFoundNothing(state.tasks, state.inputs.sources)) {
      return { kind: "nothing_found", round: 0 };
    }
    return { kind: "retrieve", round: state.retrieving };
  }
  const open = state.batches.find((b) => b.accepted_hash === null);
  if (open) return { kind: "screen", batch: open };
  if (state.expansion === null) return { kind: "expand" };
  if (state.gap === null) return { kind: "decide_gap" };
  if (state.gap.needed && state.gap.queries === null) return { kind: "gap_queries" };
  if (state.shortlist === null) return { kind: "shortlist" };
  const page = state.pages.find((p) => p.accepted_hash === null);
  if (page) return { kind: "rank", page };
  return { kind: "verify" };
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
      return step.round === 0 ? "retrieve" : "gap";
    case "screen":
      return step.batch.round > 0 || state.gap !== null ? "gap" : "screen";
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
