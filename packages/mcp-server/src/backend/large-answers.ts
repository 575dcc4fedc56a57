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

/** A body at least this large (its declared Content-Length) is a large answer. */
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
