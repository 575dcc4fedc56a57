/**
 * stdout's backpressure and the bound on what the server holds (issue 25), alone: frames go out only
 * while the stream takes them, the rest after 'drain', in order, none lost; at most MAX_OPEN_CALLS
 * calls are open, in arrival order; nothing is handed on while MAX_HELD_CHARS of answers wait; stdin
 * is paused only past MAX_QUEUED_CHARS waiting, so a cancel is read at once. The whole, under many large answers and
 * a slow reader, is the reliability suite's stdout group (tools/test/reliability/stdout.test.ts).
 */
import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { createFlow, MAX_HELD_CHARS, MAX_OPEN_CALLS, MAX_QUEUED_CHARS } from "../src/protocol/flow.js";

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

function flowOver(stream: TightStream) {
  const dispatched: unknown[] = [];
  const events: string[] = [];
  const flow = createFlow({
    output: stream,
    dispatch: (value) => dispatched.push(value),
    pause: () => events.push("pause"),
    resume: () => events.push("resume"),
  });
  flow.ready();
  return { flow, dispatched, events };
}

describe("the flow's writer", () => {
  it("hands frames over only while the stream takes them, the rest after drain, in order, none lost", () => {
    const stream = new TightStream(10);
    const { flow } = flowOver(stream);
    const frames = Array.from({ length: 6 }, (_, i) => `frame-${i}\n`);
    for (const frame of frames) flow.write(frame);
    // The first frame fills the stream (8 of 10, then the second overflows it): the rest wait.
    expect(stream.written).toEqual(frames.slice(0, 2));
    while (stream.written.length < frames.length) stream.drain();
    expect(stream.written).toEqual(frames);
  });
});

describe("the flow's bounds", () => {
  it(`holds at most ${MAX_OPEN_CALLS} calls and keeps arrival order, reading on`, () => {
    const { flow, dispatched, events } = flowOver(new TightStream(1_000_000));
    const call = (id: number) => ({ method: "tools/call", id });
    for (let id = 1; id <= MAX_OPEN_CALLS + 2; id += 1) flow.offer(call(id));
    flow.offer({ method: "ping", id: 100 });
    expect(dispatched).toHaveLength(MAX_OPEN_CALLS);
    // A few small messages waiting: stdin is read on (a cancel must be heard).
    expect(events).toEqual([]);
    // One answer out: the next call goes in; the ping still waits behind the last call.
    flow.write("answer-1\n", 1);
    expect(dispatched).toHaveLength(MAX_OPEN_CALLS + 1);
    // A cancelled call whose work has ended frees its place too (the SDK answers nothing to it).
    flow.ended(2);
    expect(dispatched.map((m) => (m as { id: number }).id)).toEqual([
      ...Array.from({ length: MAX_OPEN_CALLS + 2 }, (_, i) => i + 1),
      100,
    ]);
    expect(events).toEqual([]);
    // An unknown id, or an answer to something that is not an open call, frees no place.
    flow.ended(999);
    flow.write("answer-100\n", 100);
    flow.offer(call(50));
    expect(dispatched).toHaveLength(MAX_OPEN_CALLS + 3);
    flow.write("answer-3\n", 3);
    expect(dispatched).toHaveLength(MAX_OPEN_CALLS + 4);
  });

  it("hands nothing on before the session is ready, holding it in order", () => {
    const dispatched: unknown[] = [];
    const events: string[] = [];
    const flow = createFlow({
      output: new TightStream(1_000_000),
      dispatch: (value) => dispatched.push(value),
      pause: () => events.push("pause"),
      resume: () => events.push("resume"),
    });
    flow.offer({ method: "ping", id: 1 });
    flow.offer({ method: "tools/call", id: 2 });
    expect(dispatched).toEqual([]);
    flow.ready();
    expect(dispatched).toEqual([
      { method: "ping", id: 1 },
      { method: "tools/call", id: 2 },
    ]);
    expect(events).toEqual([]);
  });

  it(`pauses stdin past ${MAX_QUEUED_CHARS} characters waiting, and resumes once they have gone on`, () => {
    const { flow, dispatched, events } = flowOver(new TightStream(1_000_000));
    const call = (id: number) => ({ method: "tools/call", id });
    for (let id = 1; id <= MAX_OPEN_CALLS; id += 1) flow.offer(call(id), 100);
    flow.offer(call(100), MAX_QUEUED_CHARS / 2);
    expect(events).toEqual([]);
    flow.offer(call(101), MAX_QUEUED_CHARS / 2 + 1);
    expect(events).toEqual(["pause"]);
    flow.write("answer-1\n", 1);
    expect(events).toEqual(["pause", "resume"]);
    expect(dispatched).toHaveLength(MAX_OPEN_CALLS + 1);
  });

  it(`hands nothing more on while ${MAX_HELD_CHARS} characters of answers wait for the reader`, () => {
    const stream = new TightStream(10);
    const { flow, dispatched } = flowOver(stream);
    // The stream is full; an answer of MAX_HELD_CHARS waits here.
    flow.write("x".repeat(20));
    flow.write("y".repeat(MAX_HELD_CHARS));
    flow.offer({ method: "tools/list", id: 1 }, 40);
    flow.offer({ method: "ping", id: 2 }, 40);
    expect(dispatched).toEqual([]);
    // The reader takes it: what waited goes on, in order.
    stream.drain();
    stream.drain();
    expect(dispatched.map((m) => (m as { id: number }).id)).toEqual([1, 2]);
  });

  it("lets a cancel overtake the queue: a waiting call is dropped unrun, a running one hears it at once", () => {
    const { flow, dispatched } = flowOver(new TightStream(1_000_000));
    const call = (id: number) => ({ method: "tools/call", id });
    const cancel = (requestId: number) => ({ method: "notifications/cancelled", params: { requestId } });
    for (let id = 1; id <= MAX_OPEN_CALLS + 2; id += 1) flow.offer(call(id));
    // Call 1 runs: its cancel goes to the session now, ahead of the two calls still queued.
    flow.offer(cancel(1));
    expect(dispatched.at(-1)).toEqual(cancel(1));
    // Call 9 waits: it is dropped, and neither it nor its cancel reaches the session.
    flow.offer(cancel(MAX_OPEN_CALLS + 1));
    flow.ended(1);
    const ids = dispatched.map((m) => (m as { id?: number }).id);
    expect(ids).not.toContain(MAX_OPEN_CALLS + 1);
    expect(ids.at(-1)).toBe(MAX_OPEN_CALLS + 2);
  });

  it("is 8 calls, as docs/protocol.md and the README say", () => {
    expect(MAX_OPEN_CALLS).toBe(8);
  });
});
