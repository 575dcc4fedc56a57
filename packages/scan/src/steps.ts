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
  if (state.phase === "complete") return { kind: "complete" };
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
