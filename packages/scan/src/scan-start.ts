import { type ScanEnvelope, type ToolArgs, ToolError } from "@resmon/mcp-contract";
import { differingArguments, inputsHash, normalizeStart, type StartInputs } from "./args.js";
import { BudgetSpent, type ScanBackend } from "./backend.js";
import { envelopeOf } from "./envelope.js";
import { advance } from "./machine.js";
import { foundationalNote } from "./mix.js";
import { planTasks, resubmitUnfinished } from "./retrieval.js";
import { claimInputs, recordInputs, scanWithInputs } from "./same-inputs.js";
import { type EngineContext, locked, type ScanCallOptions } from "./scan-call.js";
import { scanResult } from "./scan-result.js";
import type { ScanState } from "./state.js";
import { nextStep as nextStepOf } from "./steps.js";
import { ScanDir } from "./store.js";

/** A scan's state before its first step (exported for the budget test's fixtures). */
export function newState(scanId: string, inputs: StartInputs, now: Date): ScanState {
  const at = now.toISOString();
  return {
    version: 1,
    scan_id: scanId,
    inputs,
    inputs_hash: inputsHash(inputs),
    created_at: at,
    updated_at: at,
    runtime_id: null,
    restarts: [],
    tasks: planTasks(0, inputs.queries.queries, inputs.retrieval),
    retrieving: 0,
    round_failed: false,
    candidates: [],
    batches: [],
    expansion: null,
    gap: null,
    shortlist: null,
    pages: [],
    checks: null,
    verdicts: null,
    files: null,
    summary: null,
  };
}

/**
 * The envelope of another scan with these inputs, open or finished (not stopped, not closed on
 * finding nothing), as scan_result reads it, saying it answers in place of a duplicate; null when
 * there is none or this scan_id already exists (then it is resumed as always). The one lookup of the
 * inputs' hash: nothing is sent to resmon before it.
 */
async function openScanWithInputs(
  ctx: EngineContext,
  scanId: string,
  hash: string,
): Promise<ScanEnvelope | null> {
  const other = scanWithInputs(ctx.root, hash);
  if (other === null || other === scanId) return null;
  if (new ScanDir(ctx.root, scanId, ctx.scrub).readState()) return null;
  // Another scan's storage problem never refuses this start: it is only not answered by that scan.
  let envelope: ScanEnvelope;
  try {
    const state = new ScanDir(ctx.root, other, ctx.scrub).readState();
    if (!state || state.inputs_hash !== hash) return null;
    const kind = nextStepOf(state).kind;
    // A stopped scan, or one closed because its first round found nothing, invites the same inputs again later.
    if (
      kind === "stopped" ||
      state.closed_found_nothing ||
      (kind === "complete" && state.candidates.length === 0)
    )
      return null;
    envelope = await scanResult(ctx, { scan_id: other });
  } catch {
    return null;
  }
  const done = envelope.next_action === "complete";
  envelope.payload.duplicate_of = {
    scan_id_sent: scanId,
    ...(done ? { finished_scan_id: other } : { open_scan_id: other }),
    note: done
      ? `A scan with these same inputs finished as ${other}; this is its result and nothing was sent to resmon. Read it with scan_result (scan_id ${other}). To run the same inputs again as a new scan, send scan_start with allow_duplicate: true.`
      : `A scan with these same inputs is open as ${other}; this is its answer and nothing was started. Go on with scan_id ${other}. To start a second scan with the same inputs, send scan_start with allow_duplicate: true.`,
  };
  return envelope;
}

/** scan_start: a new scan, or the same brief again (its retry, if one is on offer); other inputs under its id conflict. */
export async function startScan(
  ctx: EngineContext,
  args: ToolArgs<"scan_start">,
  backend?: ScanBackend,
  callOptions?: ScanCallOptions,
): Promise<ScanEnvelope> {
  const scanId = args.scan_id;
  const inputs = normalizeStart(args);
  const hash = inputsHash(inputs);
  // The inputs are claimed before the look, and held until this scan is saved and recorded: a second
  // start of them at the same moment waits, then finds this scan open.
  const claim = args.allow_duplicate ? null : await claimInputs(ctx.root, hash);
  try {
    // The same inputs under a new scan_id while a scan with them is open: that scan answers, nothing starts.
    const open = args.allow_duplicate ? null : await openScanWithInputs(ctx, scanId, hash);
    if (open) return open;
    return await startLocked(ctx, args, scanId, inputs, hash, () => claim?.release(), backend, callOptions);
  } finally {
    claim?.release();
  }
}

/** scan_start under the scan's lock; `recorded` is called once this scan is on disk and recorded, before anything is sent. */
function startLocked(
  ctx: EngineContext,
  args: ToolArgs<"scan_start">,
  scanId: string,
  inputs: StartInputs,
  hash: string,
  recorded: () => void,
  backend?: ScanBackend,
  callOptions?: ScanCallOptions,
): Promise<ScanEnvelope> {
  return locked(
    ctx,
    scanId,
    "scan_start",
    backend,
    callOptions,
    async (existing, open) => {
      if (existing) {
        recorded();
        // The stored hash decides; the names of what differs are only for the message.
        const differs = existing.inputs_hash === hash ? [] : differingArguments(existing.inputs, inputs);
        if (differs.length) {
          throw new ToolError(
            "conflict",
            `Scan ${scanId} is in use with other inputs (${differs.join(", ")}); use a fresh scan_id for a different brief.`,
            { conflict: "scan_id_conflict", differs },
          );
        }
        const call = open(existing);
        // The retry on offer (at most MAX_ROUND_RETRIES a round), sent after the retry wait; a
        // stopped scan answers its options and sends nothing.
        const kind = nextStepOf(existing).kind;
        if (kind === "round_failed" || kind === "nothing_found") {
          resubmitUnfinished(call.state, new Date(Date.now() + ctx.retryWaitMs));
          call.save();
        }
        return advance(call);
      }
      const call = open(newState(scanId, inputs, ctx.now()));
      // The defaulted inputs and their hash are on disk before any sweep starts.
      call.save();
      recordInputs(ctx.root, hash, scanId);
      recorded();
      // A wait budget spent under a request answers what is recorded (as locked() would), and this
      // answer still carries the note below: it is the one that starts the scan.
      const envelope = await advance(call).catch((error: unknown) => {
        if (!(error instanceof BudgetSpent)) throw error;
        call.save();
        return envelopeOf(call.state, call.records);
      });
      // Said once, on the answer that starts the scan: older papers may take places in the result.
      const note = foundationalNote(inputs, args.foundational === undefined);
      if (note) envelope.payload.foundational_note = note;
      return envelope;
    },
    true,
  );
}
