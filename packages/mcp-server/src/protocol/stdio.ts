/**
 * The one stdio entry: stdin split into lines, each parsed once (lines.ts); the opening answered by
 * the front (front.ts) while the SDK side loads; then the session (sdk.ts, from `load`) serves all,
 * given first what the front took. stdout carries only JSON-RPC frames, as fast as the reader takes
 * them, with what is held bounded by calls and bytes (flow.ts).
 */
import type { Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import type { Json } from "../json.js";
import { createFlow, type FrameOutput } from "./flow.js";
import { createFront } from "./front.js";
import { createLineReader, type Id } from "./lines.js";

export interface Session {
  /** One parsed line, in arrival order. */
  deliver(value: unknown): void;
  close(): Promise<void>;
}

/**
 * Opens the SDK's session: it writes each frame (scrubbed, with its newline, `answers` naming the request it
 * answers), says when a cancelled call has ended and replays `opening` (the front's), then calls `replayed`.
 */
export type OpenSession = (
  io: { write(frame: string, answers?: Id, written?: () => void): void; ended(id: Id): void },
  opening: readonly Json[],
  replayed?: () => void,
) => Session;

export function startStdio(options: {
  readOnly: boolean;
  input: Readable;
  output: FrameOutput;
  /** The SDK side (a dynamic import, so a cold start never compiles it). */
  load(): Promise<OpenSession>;
  /** Called once stdin has ended (after the session was closed) or loading failed. */
  onEnd(): void;
}): { close(): Promise<void> } {
  const decoder = new StringDecoder("utf8");
  let state: "front" | "loading" | "sdk" | "closed" = "front";
  let session: Session | undefined;
  let ended = false;
  const taken: Json[] = [];
  const flow = createFlow({
    output: options.output,
    dispatch: (value) => session?.deliver(value),
    pause: () => options.input.pause(),
    resume: () => options.input.resume(),
  });
  const front = createFront(options.readOnly, (frame) => flow.write(frame));

  const finish = async () => {
    if (state === "loading") return; // the hand-over finishes it
    state = "closed";
    await session?.close().catch(() => undefined);
    options.onEnd();
  };
  const handover = async () => {
    if (state !== "front") return;
    state = "loading";
    const open = await options.load().catch(() => undefined);
    if (!open) {
      process.exitCode = 1;
      return options.onEnd();
    }
    session = open({ write: flow.write, ended: flow.ended }, taken.splice(0));
    state = "sdk";
    flow.ready();
    if (ended) await finish();
  };

  const reader = createLineReader({
    deliver(value, chars) {
      if (state === "front" && front.take(value)) {
        taken.push(value as Json);
        // The session is under way: load the rest now, while the harness reads the list.
        if (front.listed) setImmediate(() => void handover());
      } else if (state !== "closed") {
        flow.offer(value, chars); // held until the session is there
        void handover();
      }
    },
    answer: (error) => flow.write(`${JSON.stringify(error)}\n`),
  });
  options.input.on("data", (chunk: Buffer | string) => {
    reader.push(typeof chunk === "string" ? chunk : decoder.write(chunk));
  });
  options.input.on("end", () => {
    ended = true;
    void finish();
  });
  return {
    close: async () => {
      state = "closed";
      await session?.close().catch(() => undefined);
    },
  };
}
