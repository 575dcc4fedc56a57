import type { ScanEnvelope, ToolArgs } from "@resmon/mcp-contract";
import { acceptGap, acceptRanked, acceptScreen, acceptStop, cleanEntries, cleanScores } from "./accept.js";
import { checkListLength } from "./args.js";
import { wrongPhase } from "./artifacts.js";
import type { ScanBackend } from "./backend.js";
import { advance, nextActionOf, roundFailedError } from "./machine.js";
import { type EngineContext, locked, notFound, type ScanCallOptions } from "./scan-call.js";
import { nextStep as nextStepOf } from "./steps.js";

/** scan_continue: at most one artifact (screen scores, gap queries or a ranking) accepted, then the scan moves on. */
export async function continueScan(
  ctx: EngineContext,
  args: ToolArgs<"scan_continue">,
  backend?: ScanBackend,
  callOptions?: ScanCallOptions,
): Promise<ScanEnvelope> {
  const scanId = args.scan_id;
  const sent = (["screen_scores", "gap_queries", "ranked_entries", "stop_screening"] as const).filter(
    (k) => args[k] !== undefined,
  );
  for (const k of sent) if (k !== "stop_screening") checkListLength(args[k], k, k);
  for (const [i, score] of (Array.isArray(args.screen_scores) ? args.screen_scores : []).entries()) {
    checkListLength(score?.criteria_hit, `screen_scores[${i}].criteria_hit`, "criteria_hit");
  }
  return locked(ctx, scanId, "scan_continue", backend, callOptions, async (state, open) => {
    if (!state) throw notFound(scanId);
    const call = open(state);
    if (sent.length > 1) {
      throw wrongPhase(`Send exactly one artifact, not ${sent.join(" and ")}.`, nextActionOf(state));
    }
    const kind = sent[0];
    if (kind === "screen_scores") return acceptScreen(call, cleanScores(args.screen_scores ?? []));
    if (kind === "gap_queries") return acceptGap(call, args.gap_queries ?? []);
    if (kind === "ranked_entries") return acceptRanked(call, cleanEntries(args.ranked_entries ?? []));
    if (kind === "stop_screening") return acceptStop(call);
    if (nextStepOf(state).kind === "round_failed") throw roundFailedError(state);
    return advance(call);
  });
}
