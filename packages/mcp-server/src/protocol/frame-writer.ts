/**
 * stdout with backpressure: frames go to the stream one after another only while it takes them
 * (write() returned true); once it says it is full, the rest wait here, in order, until 'drain'.
 * Nothing is dropped. What waits here is bounded by the caller, which stops taking new tool calls
 * while `held` is high (call-gate.ts); without that, a reader slower than the answers let frames
 * pile up in the stream's own buffer by the gigabyte (issue 25).
 */

export interface FrameOutput {
  /** false when the stream's buffer is full: wait for 'drain' before the next write. */
  write(frame: string): boolean;
  once(event: "drain", listener: () => void): unknown;
}

export interface FrameWriter {
  /** Queue one frame; resolves once the stream has taken it (not when the reader has read it). */
  write(frame: string): Promise<void>;
  /** Characters handed over and not yet drained, plus those waiting here. */
  readonly held: number;
  /** Called each time frames waiting here were handed over after a 'drain'. */
  onFlushed(listener: () => void): void;
}

export function createFrameWriter(output: FrameOutput): FrameWriter {
  const waiting: { frame: string; taken: () => void }[] = [];
  let waitingChars = 0;
  /** Characters written since the stream last said it was full or drained. */
  let inStream = 0;
  let full = false;
  const listeners: (() => void)[] = [];

  const handOver = (frame: string) => {
    inStream += frame.length;
    if (!output.write(frame)) {
      full = true;
      output.once("drain", onDrain);
    }
  };

  function onDrain(): void {
    full = false;
    inStream = 0;
    while (!full && waiting.length > 0) {
      const next = waiting.shift() as (typeof waiting)[number];
      waitingChars -= next.frame.length;
      handOver(next.frame);
      next.taken();
    }
    for (const listener of listeners) listener();
  }

  return {
    write(frame) {
      if (!full && waiting.length === 0) {
        handOver(frame);
        return Promise.resolve();
      }
      waitingChars += frame.length;
      return new Promise((taken) => waiting.push({ frame, taken }));
    },
    get held() {
      return waitingChars + (full ? inStream : 0);
    },
    onFlushed(listener) {
      listeners.push(listener);
    },
  };
}
