/**
 * What the server holds for answers, bounded by calls and by bytes (issues 25, 34). Frames go to
 * stdout only while it takes them (else after 'drain'); the rest wait here in order, none dropped.
 * Inbound messages are handed on in order while there is room: fewer than MAX_HELD_CHARS of answers
 * held, and for a tools/call fewer than MAX_OPEN_CALLS open. stdin is read on while what waits is
 * small, so a cancel is heard at once, and paused past MAX_QUEUED_CHARS, so a slow reader slows the
 * harness's writes instead of growing this process.
 */
import { isPlain } from "../json.js";
import { type Id, isId } from "./lines.js";

export interface FrameOutput {
  /** false when the stream's buffer is full: wait for 'drain' before the next write. */
  write(frame: string): boolean;
  once(event: "drain", listener: () => void): unknown;
  /** What the stream holds, not yet written (a Writable's own count). */
  readonly writableLength?: number;
}

/** Tool calls running at once (200 concurrent 240 KiB pages, slow reader: 144–183 MB RSS with 8, 189 with 16). */
export const MAX_OPEN_CALLS = 8;
/**
 * Answers held (waiting here and in the stream's buffer) past which nothing more is handed on
 * (10,000 pipelined tools/list, stdout unread 5 s, peak RSS: 670 MB unbounded, 291 at 16 MiB, 187 at 4, 166 at 1).
 */
export const MAX_HELD_CHARS = 1024 * 1024;
/** Inbound text waiting to be handed on past which stdin is paused. */
export const MAX_QUEUED_CHARS = 1024 * 1024;
/** Requests handed on in one turn of the event loop: their answers are counted before more go. */
const PER_TURN = 32;

interface Waiting {
  value: unknown;
  call: Id | undefined;
  chars: number;
  dropped?: boolean;
}

/** `dispatch` hands a message on (to the SDK); `pause` and `resume` stop and restart reading stdin. */
export function createFlow(options: {
  output: FrameOutput;
  dispatch(value: unknown): void;
  pause(): void;
  resume(): void;
}) {
  const open = new Set<Id>();
  const inbound: Waiting[] = [];
  /** The calls among `inbound`, by id: a cancel finds its call here. */
  const queuedCalls = new Map<Id, Waiting>();
  let queuedChars = 0;
  let paused = false;
  /** Nothing is handed on before the session is there to take it. */
  let ready = false;
  /** Frames the stream has not taken yet, each with the call it answers (open until it is taken). */
  const waiting: { frame: string; answers: Id | undefined; written: (() => void) | undefined }[] = [];
  let waitingChars = 0;
  let full = false;
  let thisTurn = 0;

  const held = () => waitingChars + (options.output.writableLength ?? 0);
  const room = (call: Id | undefined) =>
    ready &&
    thisTurn < PER_TURN &&
    held() < MAX_HELD_CHARS &&
    (call === undefined || open.size < MAX_OPEN_CALLS);
  const dispatch = (value: unknown, call: Id | undefined) => {
    if (call !== undefined) open.add(call);
    if (thisTurn++ === 0) setImmediate(nextTurn);
    options.dispatch(value);
  };
  const pump = () => {
    while (inbound.length > 0) {
      const next = inbound[0] as Waiting;
      if (!next.dropped && !room(next.call)) break;
      inbound.shift();
      queuedChars -= next.chars;
      if (next.call !== undefined) queuedCalls.delete(next.call);
      if (!next.dropped) dispatch(next.value, next.call);
    }
    if (paused && queuedChars <= MAX_QUEUED_CHARS) {
      paused = false;
      options.resume();
    }
  };
  function nextTurn() {
    thisTurn = 0;
    pump();
  }
  /** Call `id` was answered, or ended without an answer (cancelled, once its work stopped). */
  const close = (id: Id) => void (open.delete(id) && pump());

  const handOver = (frame: string, answers: Id | undefined, written: (() => void) | undefined) => {
    if (!options.output.write(frame)) {
      full = true;
      options.output.once("drain", () => {
        full = false;
        written?.(); // drained: every byte handed over so far has left the stream
        while (!full && waiting.length > 0) {
          const next = waiting.shift() as (typeof waiting)[number];
          waitingChars -= next.frame.length;
          handOver(next.frame, next.answers, next.written);
        }
        pump();
      });
    } else written?.();
    if (answers !== undefined) close(answers);
  };

  return {
    /** One inbound message, in order; `chars`, the length of its line. */
    offer(value: unknown, chars = 0) {
      const call = isPlain(value) && value.method === "tools/call" && isId(value.id) ? value.id : undefined;
      // A cancel overtakes the queue: a waiting call is dropped unrun (the protocol answers nothing to
      // it), a running one hears of it now rather than after the calls queued behind it.
      const params = isPlain(value) && value.method === "notifications/cancelled" ? value.params : undefined;
      const cancelled = isPlain(params) && isId(params.requestId) ? params.requestId : undefined;
      const queued = cancelled === undefined ? undefined : queuedCalls.get(cancelled);
      if (queued) {
        queued.dropped = true;
        return pump();
      }
      if (cancelled !== undefined && open.has(cancelled)) return options.dispatch(value);
      if (inbound.length === 0 && room(call)) return dispatch(value, call);
      const entry: Waiting = { value, call, chars };
      inbound.push(entry);
      if (call !== undefined) queuedCalls.set(call, entry);
      queuedChars += chars;
      if (!paused && queuedChars > MAX_QUEUED_CHARS) {
        paused = true;
        options.pause();
      }
    },
    /**
     * One frame for stdout; `answers`, the request it answers (a call holds its place until its answer
     * is handed to the stream, so a slow reader holds calls back); `written`, told once it has left it.
     */
    write(frame: string, answers?: Id, written?: () => void): void {
      if (!full && waiting.length === 0) handOver(frame, answers, written);
      else {
        waiting.push({ frame, answers, written });
        waitingChars += frame.length;
      }
    },
    ended: close,
    /** The session is there: hand on what waited. */
    ready(): void {
      ready = true;
      pump();
    },
  };
}
