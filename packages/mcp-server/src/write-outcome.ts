import {
  type ErrorEnvelope,
  WRITE_CHECKS,
  type WriteOutcomeDetail,
  type WriteToolName,
} from "@resmon/mcp-contract";
import type { WriteLog } from "./backend/adapter.js";

const isWriteTool = (name: string): name is WriteToolName => Object.hasOwn(WRITE_CHECKS, name);

/**
 * A write tool's error says what became of its write (the contract's WriteOutcomeDetail), in
 * `detail` and, where it changes what to do next, in words: a write that was sent and got no answer
 * may have happened (a harness that simply retries could do it twice), so the answer says so first
 * and names the read that shows whether it did; one that was never sent says so. `cancelled`: the client cancelled the
 * call after its write went out.
 */
export function withWriteOutcome(
  envelope: ErrorEnvelope,
  tool: string,
  writes: WriteLog | undefined,
  cancelled = false,
): ErrorEnvelope {
  if (!isWriteTool(tool)) return envelope;
  const log = writes ?? { sent: 0, accepted: 0, refused: 0, unanswered: 0 };
  const check = WRITE_CHECKS[tool];
  let outcome: WriteOutcomeDetail;
  let words = "";
  if (log.unanswered > 0) {
    outcome = { sent: true, outcome: "unknown", check_with: check.tool };
    words = `The write was sent to resmon and no answer to it came back${cancelled ? " before the call was cancelled" : ""}, so it may have happened: ${check.how}. Look there before trying again.`;
  } else if (log.accepted > 0) {
    outcome = { sent: true, outcome: "done" };
  } else if (log.refused > 0) {
    outcome = { sent: true, outcome: "refused" };
  } else {
    outcome = { sent: false, outcome: "not_sent" };
    if (envelope.error === "backend_unavailable") words = "Nothing that changes resmon was sent.";
  }
  // An unknown outcome leads: a model reading "so this call gave up" first may simply retry.
  const message =
    outcome.outcome === "unknown"
      ? `${words} ${envelope.message}`
      : words
        ? `${envelope.message} ${words}`
        : envelope.message;
  return {
    ...envelope,
    message,
    detail: { ...envelope.detail, ...outcome },
  };
}
