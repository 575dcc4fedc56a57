import type { ScanEnvelope, ToolArgs } from "@resmon/mcp-contract";
import { cleanEntries, mergeFinalEntries } from "./accept.js";
import { checkListLength } from "./args.js";
import { badArtifact, wrongPhase } from "./artifacts.js";
import type { ScanBackend } from "./backend.js";
import { envelopeOf } from "./envelope.js";
import { nextActionOf } from "./machine.js";
import { type EngineContext, locked, notFound, type ScanCallOptions } from "./scan-call.js";
import { nextStep as nextStepOf } from "./steps.js";
import { closeFoundNothing, runVerification } from "./verify-run.js";

/** scan_verify: the final ranking merged, its pages checked against resmon, the evidence files written. */
export async function verifyScan(
  ctx: EngineContext,
  args: ToolArgs<"scan_verify">,
  backend?: ScanBackend,
  callOptions?: ScanCallOptions,
): Promise<ScanEnvelope> {
  const scanId = args.scan_id;
  checkListLength(args.ranked_entries, "ranked_entries", "ranked_entries");
  return locked(ctx, scanId, "scan_verify", backend, callOptions, async (state, open) => {
    if (!state) throw notFound(scanId);
    const call = open(state);
    const entries = args.ranked_entries === undefined ? [] : cleanEntries(args.ranked_entries);
    const step = nextStepOf(state);
    if (step.kind === "complete") {
      // A finished scan is final: the stored result, and nothing new.
      if (entries.length) {
        const { replayOnly } = mergeFinalEntries(structuredClone(state), entries);
        if (!replayOnly) throw wrongPhase("This scan is complete and takes nothing new.", "complete");
        return envelopeOf(state, call.records, { replayed: true });
      }
      return envelopeOf(state, call.records);
    }
    // A first round that failed or found nothing with no source answering (a retry on offer or
    // not): the scan may be closed with evidence that says so.
    const closable =
      step.kind === "nothing_found" ||
      step.kind === "stopped" ||
      (step.kind === "round_failed" && step.round === 0);
    if (closable) closeFoundNothing(state);
    else if (step.kind !== "rank" && step.kind !== "verify") {
      throw wrongPhase("Nothing is ranked yet: follow next_action.", nextActionOf(state));
    }
    if (entries.length) {
      mergeFinalEntries(state, entries);
      call.save();
    }
    const unranked = state.pages.filter((p) => p.accepted_hash === null).flatMap((p) => p.doc_ids);
    if (unranked.length) {
      throw badArtifact(
        "ranking",
        { missing_ids: unranked, unknown_ids: [], duplicate_ids: [], bad_criteria: [] },
        {
          next_action: "rank_shortlist",
        },
      );
    }
    await runVerification(call);
    return envelopeOf(call.state, call.records);
  });
}
