import type { NEXT_ACTIONS } from "./scan-parts.js";

/**
 * What a model is taught about the scan tools: the server's instructions carry it, and so can any
 * prompt that runs a scan (a literature_scan prompt), so every consumer reads the same words.
 */

type NextAction = (typeof NEXT_ACTIONS)[number];

/**
 * For every next_action, the call that answers it: the tool first, then what to send. Typed over
 * every value, so a new next_action cannot be left untaught.
 */
export const NEXT_ACTION_CALLS: { readonly [A in NextAction]: string } = {
  await_retrieval: "scan_continue with scan_id alone (a poll)",
  retry_start: "scan_start again, the same arguments",
  screen_candidates:
    "scan_continue screen_scores, one per batch item (fix a slip: resend its score with a reason); stop_screening when offered",
  write_gap_queries: "scan_continue gap_queries ([] skips the round)",
  rank_shortlist:
    "scan_continue ranked_entries, every paper of the page; ranks order the whole shortlist (page 0 lists it all)",
  verify_ranked: "scan_verify",
  complete: "scan_result",
  choose_option:
    "one of payload.options: its tool with its arguments; ask the person first where needs_person is true",
};

/** The tool each next_action names (the first word of its call); null when the answer's options name it. */
export function toolForNextAction(action: NextAction): string | null {
  const call = NEXT_ACTION_CALLS[action];
  return call.startsWith("one of payload.options") ? null : (call.split(" ")[0] as string);
}

/**
 * The scan, taught in a few lines: one scan_id per brief, next_action on every answer, the same
 * scan_id to resume, and which calls need the person's approval (one covers the scan's
 * continuation; only new queries need a fresh one).
 */
export const SCAN_TEACHING = [
  "Literature scan: make one scan_id (lowercase UUIDv4) per brief and send it with every call of that scan; to resume, retry or check on it, send the same scan_id, never a new one.",
  "Follow next_action on every answer (a refusal's detail.next_action too):",
  ...Object.entries(NEXT_ACTION_CALLS).map(([action, call]) => `${action} → ${call}`),
  "The person's approval of the plan (brief, queries, sources) covers the whole scan: every poll, batch, page, retry and scan_verify. Ask again only before a call that sends queries they have not approved: gap_queries other than [], or scan_start with a new scan_id.",
].join("\n");
