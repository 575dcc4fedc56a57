/**
 * How many tool calls the server holds at once: a call is open from when the SDK is given it until
 * its answer has been handed to stdout (frame-writer.ts), so a reader slower than the answers
 * bounds what the process holds to `maxOpen` answers. Past that, messages wait here in arrival
 * order and stdin is paused (the harness's own writes then wait in the pipe), until an answer goes
 * out. No message is dropped and none overtakes another.
 */

type Id = string | number;

export interface CallGateOptions {
  maxOpen: number;
  /** Hand one message on (to the SDK, or to whatever answers it first). */
  dispatch(value: unknown, plain: boolean): void;
  /** Stop and restart reading stdin. */
  pause(): void;
  resume(): void;
}

export interface CallGate {
  /** One message from stdin, in order: dispatched now or held. */
  offer(value: unknown, plain: boolean, callId: Id | undefined): void;
  /** The SDK was given tool call `id` (dispatch calls this). */
  opened(id: Id): void;
  /** Call `id` was answered (its frame handed to stdout) or cancelled (the SDK then answers nothing). */
  closed(id: Id): void;
  /** How many calls are open now. */
  readonly open: number;
}

export function createCallGate(options: CallGateOptions): CallGate {
  const open = new Map<Id, number>();
  let openCount = 0;
  const held: { value: unknown; plain: boolean; callId: Id | undefined }[] = [];
  let paused = false;

  const full = () => openCount >= options.maxOpen;

  const pump = () => {
    while (held.length > 0) {
      const next = held[0] as (typeof held)[number];
      if (next.callId !== undefined && full()) return;
      held.shift();
      options.dispatch(next.value, next.plain);
    }
    if (paused) {
      paused = false;
      options.resume();
    }
  };

  return {
    offer(value, plain, callId) {
      if (held.length === 0 && (callId === undefined || !full())) {
        options.dispatch(value, plain);
        return;
      }
      held.push({ value, plain, callId });
      if (!paused) {
        paused = true;
        options.pause();
      }
    },
    opened(id) {
      open.set(id, (open.get(id) ?? 0) + 1);
      openCount += 1;
    },
    closed(id) {
      const count = open.get(id);
      if (count === undefined) return;
      if (count > 1) open.set(id, count - 1);
      else open.delete(id);
      openCount -= 1;
      pump();
    },
    get open() {
      return openCount;
    },
  };
}
