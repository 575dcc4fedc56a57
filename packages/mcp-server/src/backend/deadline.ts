/**
 * Deadlines and queue time: one tool call's requests, finding resmon included, end by its deadline
 * (plus a little slack), and the deadline moves on by the time the call waits in the server's own
 * queue of large answers (large-answers.ts), which resmon is not to blame for.
 */
import type { ToolError } from "../errors.js";
import { cancelledError } from "./cancel.js";
import type { LargeAnswersHeld } from "./large-answers.js";

/** How far past its deadline one tool call's requests may run, finding resmon included: the bound is timeout + 1 s, and most of that second is left for a loaded machine to frame and write the answer (a load average of 19 on 2 cores took 300 ms). */
const CALL_SLACK_MS = 250;

/** Ms the call has spent in the server's own queue of large answers, a wait under way included. */
export function queuedMs(large: LargeAnswersHeld | undefined): number {
  if (!large) return 0;
  return large.waitedMs + (large.waitingSince === undefined ? 0 : Date.now() - large.waitingSince);
}

/** Ms left before `deadline`, moved on by the call's queue time. */
export function msLeft(deadline: number, large: LargeAnswersHeld | undefined): number {
  return deadline + queuedMs(large) - Date.now();
}

/**
 * `work`, or `late()` once the deadline has passed, or the cancel's error as soon as `signal` aborts.
 * The deadline moves on by the time the call waits in the server's own queue (`large`).
 */
export async function withinDeadline<T>(
  work: () => Promise<T>,
  deadline: number,
  late: () => ToolError,
  signal?: AbortSignal,
  large?: LargeAnswersHeld,
): Promise<T> {
  if (signal?.aborted) throw cancelledError();
  if (msLeft(deadline, large) <= 0) throw late();
  const running = work();
  // The loser of the race may still fail later; that is not an unhandled rejection.
  running.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const lateness = new Promise<never>((_resolve, reject) => {
    const check = () => {
      const left = msLeft(deadline, large) + CALL_SLACK_MS;
      if (left > 0 || large?.waitingSince !== undefined) timer = setTimeout(check, Math.max(left, 50));
      else reject(late());
    };
    timer = setTimeout(check, deadline - Date.now() + CALL_SLACK_MS);
    onAbort = () => reject(cancelledError());
    signal?.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([running, lateness]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener("abort", onAbort);
  }
}
