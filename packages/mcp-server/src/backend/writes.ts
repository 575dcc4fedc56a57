/**
 * Write accounting: what became of the requests that change resmon (the contract's WRITE_ROUTES)
 * one tool call sent. A failed write tool's answer says it (write-outcome.ts).
 */
import type { ApiResult } from "@resmon/api-client";

/**
 * Each write request one tool call sent is then accepted (2xx), refused (4xx), or unanswered (no
 * answer in time, a dropped connection, a server error, an answer that could not be read).
 */
export interface WriteLog {
  sent: number;
  accepted: number;
  refused: number;
  unanswered: number;
}

export const noWrites = (): WriteLog => ({ sent: 0, accepted: 0, refused: 0, unanswered: 0 });

export interface WriteTracker {
  sent(): void;
  ended(how: "accepted" | "refused" | "unanswered"): void;
}

/** Counts one send's write request into the call's WriteLog (none kept without one). */
export function writeTracker(writes: WriteLog | undefined): WriteTracker {
  let pending = false;
  return {
    sent() {
      if (!writes) return;
      writes.sent += 1;
      pending = true;
    },
    ended(how) {
      if (!writes || !pending) return;
      pending = false;
      writes[how] += 1;
    },
  };
}

/** How a sent write ended: answered (a 2xx, even one whose body was not the JSON promised), refused (4xx), or no answer. */
export function writeEnd(result: ApiResult<unknown>): "accepted" | "refused" | "unanswered" {
  if (result.ok) return "accepted";
  const { error } = result;
  if (error.kind === "malformed" && error.status < 300) return "accepted";
  return error.kind === "http" && error.status < 500 ? "refused" : "unanswered";
}
