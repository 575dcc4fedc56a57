import { type ScanEnvelope, type ToolArgs, ToolError } from "@resmon/mcp-contract";
import { differingArguments, inputsHash, normalizeStart, type StartInputs } from "./args.js";
import type { ScanBackend } from "./backend.js";
import { advance } from "./machine.js";
import { foundationalNote } from "./mix.js";
import { planTasks, resubmitUnfinished } from "./retrieval.js";
import { type EngineContext, locked, type ScanCallOptions } from "./scan-call.js";
import type { ScanState } from "./state.js";
import { nextStep as nextStepOf } from "./steps.js";

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

/** scan_start: a new scan, or the same brief again (its retry, if one is on offer); other inputs under its id conflict. */
export async function startScan(
  ctx: EngineContext,
  args: ToolArgs<"scan_start">,
  backend?: ScanBackend,
  callOptions?: ScanCallOptions,
): Promise<ScanEnvelope> {
  const scanId = args.scan_id;
  const inputs = normalizeStart(args);
  return locked(
    ctx,
    scanId,
    "scan_start",
    backend,
    callOptions,
    async (existing, open) => {
      if (existing) {
        // The stored hash decides; the names of what differs are only for the message.
        const differs =
          existing.inputs_hash === inputsHash(inputs) ? [] : differingArguments(existing.inputs, inputs);
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
      const envelope = await advance(call);
      // Said once, on the answer that starts the scan: older papers may take places in the result.
      const note = foundationalNote(inputs, args.foundational === undefined);
      if (note) envelope.payload.foundational_note = note;
      return envelope;
    },
    true,
  );
}
