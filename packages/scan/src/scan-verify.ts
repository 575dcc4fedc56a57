import { type ScanEnvelope, type ToolArgs, ToolError } from "@resmon/mcp-contract";
import { cleanEntries, mergeFinalEntries } from "./accept.js";
import { checkListLength } from "./args.js";
import { badArtifact, wrongPhase } from "./artifacts.js";
import type { ScanBackend } from "./backend.js";
import { envelopeOf } from "./envelope.js";
import { nextActionOf } from "./machine.js";
import { type EngineContext, locked, notFound, type ScanCallOptions } from "./scan-call.js";
import type { Page, ScanState } from "./state.js";
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
    // Never a rank for a paper the model was not shown: a page not yet answered to it is read first.
    const unread = state.pages.filter((p) => p.accepted_hash === null && !p.shown);
    const unreadIds = new Set(unread.flatMap((p) => p.doc_ids));
    if (entries.some((e) => unreadIds.has(e.doc_id))) throw unreadPages(state, unread, true);
    if (entries.length) {
      mergeFinalEntries(state, entries);
      call.save();
    }
    const unranked = state.pages.filter((p) => p.accepted_hash === null && p.shown).flatMap((p) => p.doc_ids);
    if (unranked.length) {
      throw badArtifact(
        "ranking",
        { missing_ids: unranked, unknown_ids: [], duplicate_ids: [], bad_criteria: [] },
        {
          next_action: "rank_shortlist",
          ...(unread.length ? { unread_pages: unread.map((p) => p.index) } : {}),
        },
      );
    }
    if (unread.length) throw unreadPages(state, unread, false);
    await runVerification(call);
    return envelopeOf(call.state, call.records);
  });
}

/** Shortlist pages the model has not been shown: it reads them (a poll answers the next) before ranking them. */
function unreadPages(state: ScanState, unread: readonly Page[], sentRanks: boolean): ToolError {
  const pages = unread.map((p) => p.index);
  const first = (pages[0] as number) + 1;
  return new ToolError(
    "invalid_argument",
    `${sentRanks ? "Ranks were sent for papers you have not been shown: " : ""}shortlist page${pages.length > 1 ? "s" : ""} ${pages.map((i) => i + 1).join(", ")} of ${state.pages.length} ${pages.length > 1 ? "have" : "has"} not been read. Call scan_continue with scan_id alone to read page ${first}, rank it, and go on until next_action is verify_ranked.`,
    { reason: "unread_pages", unread_pages: pages, next_action: "rank_shortlist" },
  );
}
