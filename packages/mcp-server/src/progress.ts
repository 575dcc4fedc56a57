import { PROGRESS_MAX_PER_SECOND } from "@resmon/mcp-contract";

/**
 * A tool call's progress, as the harness sees it: `notifications/progress` for the request's
 * progressToken (serve.ts sends them; this module knows no SDK). A handler reports
 * `{stage, done, total, message}` as its work moves; what goes out is one scale for the whole call
 * (a later stage counts on from where the earlier one ended), strictly increasing, at most
 * PROGRESS_MAX_PER_SECOND a second (a report inside the interval waits and is replaced by a newer
 * one); the one held when the call answers goes before the answer, and nothing after it.
 */
export interface ProgressReport {
  /** Work of one kind (retrieve, verify, export): a new stage counts on from the last one's total. */
  stage: string;
  done: number;
  total?: number;
  message: string;
}

/** One notification's params, without the token. */
export interface ProgressNote {
  progress: number;
  total?: number;
  message: string;
}

export interface ProgressReporter {
  report(r: ProgressReport): void;
  /**
   * The call is answering. A report still held for its interval is sent first, when the interval
   * comes (so a fast verification ends on "N of N", not on its first report), unless `dropHeld`
   * (a cancelled call says nothing more); then nothing more is sent. Resolves once the
   * notifications handed on are written, so none can arrive after the answer.
   */
  end(dropHeld?: boolean): Promise<void>;
}

export const PROGRESS_INTERVAL_MS = Math.ceil(1000 / PROGRESS_MAX_PER_SECOND);

/**
 * How long after a notification the answer waits at least. The SDK client dispatches a response at
 * once and a notification a microtask later, so a notification read in the same chunk as the answer
 * finds its request retired and is reported as an error ("unknown token", typescript-sdk issue
 * #2580), which some harnesses treat as a broken connection. A short gap keeps them apart.
 */
export const ANSWER_GAP_MS = 40;

export interface ReporterTimers {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const REAL: ReporterTimers = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export function progressReporter(
  send: (note: ProgressNote) => void,
  timers: ReporterTimers = REAL,
): ProgressReporter {
  let base = 0;
  let stage: string | undefined;
  let stageEnd = 0;
  let lastSent = -1;
  let lastAt = Number.NEGATIVE_INFINITY;
  let pending: ProgressNote | undefined;
  let timer: unknown;
  let ended = false;
  const sending = new Set<Promise<void>>();

  const flush = () => {
    timer = undefined;
    if (ended || !pending) return;
    const note = pending;
    pending = undefined;
    lastSent = note.progress;
    lastAt = timers.now();
    const sent: unknown = send(note);
    if (sent instanceof Promise) {
      const tracked = sent.catch(() => undefined).finally(() => sending.delete(tracked));
      sending.add(tracked);
    }
  };

  return {
    report(r) {
      if (ended) return;
      if (stage !== undefined && r.stage !== stage) base = stageEnd;
      stage = r.stage;
      const progress = base + r.done;
      stageEnd = Math.max(stageEnd, base + (r.total ?? r.done));
      // The protocol asks progress to increase with every notification for a token.
      if (progress <= lastSent) return;
      pending = {
        progress,
        ...(r.total !== undefined ? { total: base + r.total } : {}),
        message: r.message,
      };
      const wait = lastAt + PROGRESS_INTERVAL_MS - timers.now();
      if (wait <= 0) flush();
      else timer ??= timers.setTimeout(flush, wait);
    },
    async end(dropHeld = false) {
      if (!ended && !dropHeld && pending !== undefined && timer !== undefined) {
        timers.clearTimeout(timer);
        const wait = Math.max(0, lastAt + PROGRESS_INTERVAL_MS - timers.now());
        await new Promise<void>((resolve) => {
          timer = timers.setTimeout(() => {
            flush();
            resolve();
          }, wait);
        });
      }
      ended = true;
      pending = undefined;
      if (timer !== undefined) timers.clearTimeout(timer);
      timer = undefined;
      await Promise.all(sending);
      const since = timers.now() - lastAt;
      if (since < ANSWER_GAP_MS)
        await new Promise<void>((resolve) => timers.setTimeout(resolve, ANSWER_GAP_MS - since));
    },
  };
}
