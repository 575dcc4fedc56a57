/**
 * A round that failed, or found nothing with no source answering, is offered for one retry (with
 * when it is sent and why it could help); after that the scan stops and the caller chooses among
 * options (choose_option), never an endless resend.
 */
import { atRisk, riskWords, tallySources } from "./coverage.js";
import { MAX_ROUND_RETRIES } from "./profile.js";
import type { ScanState } from "./state.js";
import { retriesLeft } from "./steps.js";

/** The default wait before a retry's retrievals are sent (the server's RESMON_MCP_SCAN_RETRY_WAIT_MS). */
export const DEFAULT_RETRY_WAIT_MS = 60_000;

/** One way on from a stopped scan: the call to make, and whether the person must agree first. */
export interface StopOption {
  option: "retry" | "close" | "other_sources" | "corpus" | "later";
  tool: "scan_start" | "scan_verify";
  /** The call's arguments; null where the model writes them (a new scan: a fresh scan_id and the changed inputs). */
  arguments: Record<string, unknown> | null;
  needs_person: boolean;
  says: string;
}

/** The ways on once a first round failed or found nothing (retry: only while one is left). */
export function stopOptions(state: ScanState, retry: boolean): StopOption[] {
  const scanId = state.scan_id;
  return [
    ...(retry
      ? [
          {
            option: "retry" as const,
            tool: "scan_start" as const,
            arguments: null,
            needs_person: false,
            says: "Send the same scan_start again: this round's retrievals are sent once more, after the wait.",
          },
        ]
      : []),
    {
      option: "close",
      tool: "scan_verify",
      arguments: { scan_id: scanId },
      needs_person: false,
      says: "Close this scan: its evidence says it found nothing, that coverage is unknown, and which sources did not answer.",
    },
    {
      option: "other_sources",
      tool: "scan_start",
      arguments: null,
      needs_person: true,
      says: "Start a new scan (a fresh scan_id) naming other sources from list_sources.",
    },
    {
      option: "corpus",
      tool: "scan_start",
      arguments: null,
      needs_person: true,
      says: 'Start a new scan (a fresh scan_id) with retrieval: "corpus": the papers resmon already holds; no source is asked.',
    },
    {
      option: "later",
      tool: "scan_start",
      arguments: null,
      needs_person: true,
      says: "Later: close this one, then start a new scan (a fresh scan_id) with the same arguments.",
    },
  ];
}

/** Why a retry of the round could help, or why it may not, in resmon's terms. */
export function retryWhy(state: ScanState, round: number): string {
  const tasks = state.tasks.filter((t) => t.round === round);
  if (state.round_failed) {
    return "No retrieval of the round finished (each one's error is listed); resmon may take them after the wait.";
  }
  const risky = atRisk(tallySources(tasks, state.inputs.sources));
  const down = risky.filter((t) => t.non_answer > 0).map((t) => t.source);
  if (down.length) {
    return `resmon recorded that ${down.join(", ")} did not answer; a source that was down may answer after the wait.`;
  }
  return `resmon did not record why ${risky.map((t) => t.source).join(", ")} returned nothing; a retry helps only if that cause has passed.`;
}

/** The retry on offer: how many are left, how long it waits, and why it could help. */
export function retryOffer(state: ScanState, round: number): Record<string, unknown> {
  return {
    retries_left: retriesLeft(state, round),
    of: MAX_ROUND_RETRIES,
    wait_s: Math.round((state.retry_wait_ms ?? DEFAULT_RETRY_WAIT_MS) / 1000),
    why: retryWhy(state, round),
  };
}

/** A retry under way: which one, and when its retrievals are sent (while that is still ahead). */
export function retryUnderWay(
  state: ScanState,
  round: number,
): { attempt: number; of: number; sends_at?: string } | null {
  const done = state.retries?.[String(round)] ?? 0;
  if (done === 0) return null;
  const at = state.retry_at;
  const waiting = typeof at === "string" && Date.parse(at) > Date.now();
  return { attempt: done, of: MAX_ROUND_RETRIES, ...(waiting ? { sends_at: at } : {}) };
}

/** The sentence a stopped scan says first. */
export function stoppedWords(state: ScanState, why: "failed" | "nothing"): string {
  const times = MAX_ROUND_RETRIES === 1 ? "twice (once and one retry)" : `${MAX_ROUND_RETRIES + 1} times`;
  const risky = atRisk(tallySources(state.tasks, state.inputs.sources));
  return why === "failed"
    ? `This scan stopped: the first round's retrievals were sent ${times} and none finished either time. They are not sent again; choose one of options.`
    : `This scan stopped: the first round's sweeps were sent ${times} and every one returned 0 papers with no source recorded as answering (${riskWords(risky)}). They are not sent again; choose one of options. That is not evidence that there are no papers.`;
}
