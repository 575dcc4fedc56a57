/**
 * The two pieces of stdout's backpressure (issue 25), alone: the frame writer waits for 'drain' and
 * drops nothing, in order; the call gate holds at most MAX_OPEN_CALLS calls and pauses stdin past
 * that, in arrival order. The whole, under 200 concurrent large answers and a slow reader, is the
 * reliability suite's stdout group (tools/test/reliability/stdout.test.ts).
 */
import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { createCallGate } from "../src/protocol/call-gate.js";
import { createFrameWriter } from "../src/protocol/frame-writer.js";
import { MAX_OPEN_CALLS } from "../src/protocol/stdio.js";

/** A stream that takes `room` characters, then says it is full until drain() is called. */
class TightStream extends EventEmitter {
  written: string[] = [];
  private used = 0;
  constructor(private readonly room: number) {
    super();
  }
  write(frame: string): boolean {
    this.written.push(frame);
    this.used += frame.length;
    return this.used < this.room;
  }
  drain(): void {
    this.used = 0;
    this.emit("drain");
  }
}

describe("the frame writer", () => {
  it("hands frames over only while the stream takes them, the rest after drain, in order, none lost", async () => {
    const stream = new TightStream(10);
    const writer = createFrameWriter(stream);
    const taken: number[] = [];
    const frames = Array.from({ length: 6 }, (_, i) => `frame-${i}\n`);
    const done = frames.map((frame, i) => writer.write(frame).then(() => taken.push(i)));
    // The first frame fills the stream (8 of 10, then the second overflows it): the rest wait.
    expect(stream.written).toEqual(frames.slice(0, 2));
    expect(writer.held).toBeGreaterThan(0);
    while (stream.written.length < frames.length) stream.drain();
    await Promise.all(done);
    expect(stream.written).toEqual(frames);
    expect(taken).toEqual([0, 1, 2, 3, 4, 5]);
    stream.drain();
    expect(writer.held).toBe(0);
  });
});

describe("the call gate", () => {
  it(`holds at most ${MAX_OPEN_CALLS} calls, pauses stdin past that, and keeps arrival order`, () => {
    const dispatched: unknown[] = [];
    const events: string[] = [];
    const gate = createCallGate({
      maxOpen: MAX_OPEN_CALLS,
      dispatch: (value) => {
        dispatched.push(value);
        const id = (value as { id?: number; method?: string }).id;
        if ((value as { method?: string }).method === "tools/call" && id !== undefined) gate.opened(id);
      },
      pause: () => events.push("pause"),
      resume: () => events.push("resume"),
    });
    const call = (id: number) => ({ method: "tools/call", id });
    for (let id = 1; id <= MAX_OPEN_CALLS + 2; id += 1) gate.offer(call(id), true, id);
    gate.offer({ method: "ping", id: 100 }, true, undefined);
    expect(dispatched).toHaveLength(MAX_OPEN_CALLS);
    expect(gate.open).toBe(MAX_OPEN_CALLS);
    expect(events).toEqual(["pause"]);
    // One answer out: the next call goes in; the ping still waits behind the last call.
    gate.closed(1);
    expect(dispatched).toHaveLength(MAX_OPEN_CALLS + 1);
    expect(events).toEqual(["pause"]);
    // A cancelled call frees its place too (the SDK answers nothing to it).
    gate.closed(2);
    expect(dispatched.map((m) => (m as { id: number }).id)).toEqual([
      ...Array.from({ length: MAX_OPEN_CALLS + 2 }, (_, i) => i + 1),
      100,
    ]);
    expect(events).toEqual(["pause", "resume"]);
    // An unknown id changes nothing.
    gate.closed(999);
    expect(gate.open).toBe(MAX_OPEN_CALLS);
  });

  it("is 8, as docs/protocol.md and the README say", () => {
    expect(MAX_OPEN_CALLS).toBe(8);
  });
});
