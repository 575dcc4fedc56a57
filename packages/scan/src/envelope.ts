import type { ScanEnvelope } from "@resmon/mcp-contract";
import { coverageProgress } from "./coverage.js";
import { payloadOf } from "./payloads.js";
import { RETRY_AFTER_CAP_MS } from "./retrieval.js";
import { shortlistedIds } from "./shortlist.js";
import type { RecordBook, ScanState } from "./state.js";
import { nextStep, phaseOf } from "./steps.js";

/** What the scan has done so far, in counts: in every envelope beside the step's payload (payloads.ts). */
function progressOf(state: ScanState): Record<string, unknown> {
  const sweeps = state.tasks;
  const count = (s: string) => sweeps.filter((t) => t.status === s).length;
  const screened = state.batches.reduce((n, b) => n + (b.scores?.length ?? 0), 0);
  const ranked = state.pages.reduce((n, p) => n + (p.entries?.length ?? 0), 0);
  const progress: Record<string, unknown> = {
    retrieval: {
      planned: sweeps.length,
      done: count("done"),
      failed: count("failed"),
      running: count("running") + count("submitting"),
      waiting: count("pending"),
    },
    candidates: state.candidates.length,
    batches: `${state.batches.filter((b) => b.accepted_hash !== null).length}/${state.batches.length}`,
    screened,
    shortlisted: shortlistedIds(state.shortlist).length,
    ...(state.shortlist?.left_out?.length ? { left_out: state.shortlist.left_out.length } : {}),
    ranked,
    verified: state.verdicts ? state.verdicts.filter((v) => v.verified).length : 0,
  };
  // resmon's run slots are full: when it said to ask again (its Retry-After, up to the cap), said here.
  const waiting = sweeps.filter((t) => t.status === "pending" && t.retry_at);
  if (waiting.length) {
    const next = waiting.map((t) => t.retry_at as string).sort()[0];
    const asked = waiting.map((t) => t.retry_after_s).filter((s): s is number => typeof s === "number");
    progress.admission = {
      waiting_for_slot: waiting.length,
      next_try_at: next,
      ...(asked.length ? { retry_after_s: Math.max(...asked) } : {}),
      retry_after_cap_s: RETRY_AFTER_CAP_MS / 1000,
    };
  }
  // How many sources resmon did not record as answering every finished sweep (coverage_note names them).
  Object.assign(progress, coverageProgress(state.tasks, state.inputs.sources));
  if (state.restarts.length) {
    progress.backend_restarted = true;
    progress.backend_restarts = state.restarts.length;
  }
  return progress;
}

export function envelopeOf(
  state: ScanState,
  records: RecordBook,
  extra: { replayed?: boolean } = {},
): ScanEnvelope {
  const step = nextStep(state);
  const { next, payload } = payloadOf(state, records, step);
  const envelope: ScanEnvelope = {
    scan_id: state.scan_id,
    phase: phaseOf(state, step),
    status: "ok",
    next_action: next,
    progress: progressOf(state),
    payload,
  };
  if (extra.replayed) envelope.replayed = true;
  return envelope;
}
