/**
 * A process-wide byte budget for large resmon answers in hand (issue 34 point 2). One page near the
 * 6 MiB body ceiling becomes ~80 MB of transient copies on its way to stdout (the body, its text,
 * the parsed and shaped answer, the tool result's text, a 12 MB frame and its bytes for the pipe),
 * so 8 at once took the server to 350 MB. A large answer's body is read only once it fits in the
 * budget (at once when nothing else large is held), and its room is given back once its frame has
 * left stdout; then `reclaim` (the bin's full GC) runs, since V8 would otherwise let the dead
 * copies of one page after another pile up (RSS +40–50 MB a page). resmon has answered by then:
 * the wait is this server's own and the request's deadline is paused while it lasts (adapter.ts).
 */

/**
 * A body at least this large (its declared Content-Length) is a large answer. One that declares no
 * length is asked about once 1 MiB of it is in (the client's UNDECLARED_ASKED_FROM), with the ceiling.
 */
export const LARGE_ANSWER_BYTES = 1024 * 1024;
/** Large answers' bytes in hand at once: one page at the 6 MiB ceiling, or a few smaller ones. */
export const LARGE_ANSWERS_BUDGET_BYTES = 8 * 1024 * 1024;

/** Gives the room back; once only (later calls do nothing). */
export type Release = () => void;

let held = 0;
const waiting: { bytes: number; admit: (release: Release) => void }[] = [];
let reclaim: (() => void) | undefined;

/** What runs once a large answer's room is given back (the bin: a full GC). */
export function reclaimAfterLargeAnswers(run: () => void): void {
  reclaim = run;
}

function admitWaiting(): void {
  while (waiting.length > 0) {
    const next = waiting[0] as (typeof waiting)[number];
    if (held > 0 && held + next.bytes > LARGE_ANSWERS_BUDGET_BYTES) return;
    waiting.shift();
    held += next.bytes;
    next.admit(releaseOf(next.bytes));
  }
}

function releaseOf(bytes: number): Release {
  let released = false;
  return () => {
    if (released) return;
    released = true;
    held -= bytes;
    reclaim?.();
    admitWaiting();
  };
}

/**
 * Resolves, in order of asking, once `bytes` fit in the budget (at once when nothing large is held);
 * when `signal` aborts first (the call was cancelled), with nothing held.
 */
export function takeLargeAnswer(bytes: number, signal?: AbortSignal): Promise<Release> {
  return new Promise((admit) => {
    const entry = { bytes, admit };
    waiting.push(entry);
    signal?.addEventListener(
      "abort",
      () => {
        const at = waiting.indexOf(entry);
        if (at < 0) return;
        waiting.splice(at, 1);
        admit(() => undefined);
      },
      { once: true },
    );
    admitWaiting();
  });
}

/**
 * A tool call's room in the budget, and how long it waited for it: the server's own queue, not
 * counted against the call's deadline (deadline.ts).
 */
export interface LargeAnswersHeld {
  /** Room taken (or being waited for) once per call: every large answer of the call reads in it. */
  room?: Promise<void>;
  release?: Release;
  /** The call's answer has left: room taken after this is given back at once. */
  done?: boolean;
  waitedMs: number;
  /** When the wait under way began, if one is. */
  waitingSince?: number;
}

/**
 * Before a large answer's body is read: wait for room in the budget, once per call (its other large
 * answers, even ones read at the same time, read in that room: a call never waits for itself). The
 * request's own timeout is paused meanwhile (the client's beforeBody) and the call's deadline moves
 * on by the wait.
 */
export function roomFor(bytes: number, large: LargeAnswersHeld, signal?: AbortSignal): Promise<void> {
  if (bytes < LARGE_ANSWER_BYTES) return Promise.resolve();
  large.room ??= (async () => {
    const since = Date.now();
    large.waitingSince = since;
    try {
      large.release = await takeLargeAnswer(bytes, signal);
      // Work the call left running after its answer (none is known) holds no room.
      if (large.done) large.release();
    } finally {
      large.waitedMs += Date.now() - since;
      large.waitingSince = undefined;
    }
  })();
  return large.room;
}

/** The call's answer has left stdout: its room goes back, and room it takes later goes back at once. */
export function letGo(large: LargeAnswersHeld): void {
  large.done = true;
  large.release?.();
}
