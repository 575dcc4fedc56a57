/**
 * The one stdio entry. stdin is split into lines and each line parsed once (lines.ts); the opening
 * is answered by the front from the SDK's recorded answers (front.ts) while the SDK loads; then the
 * SDK's serveStdio serves the session, handed parsed messages: first the ones the front took (their
 * answers, already given, are dropped by id, as messages), then everything after. stdout carries
 * only JSON-RPC frames, each written once, scrubbed, and only as fast as the reader takes them
 * (frame-writer.ts), with at most MAX_OPEN_CALLS tool calls held at once (call-gate.ts).
 */
import type { Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { scrub } from "../scrub.js";
import { noteArrival } from "./arrivals.js";
import { createCallGate } from "./call-gate.js";
import { createFrameWriter, type FrameOutput } from "./frame-writer.js";
import { createFront } from "./front.js";
import { createLineReader, invalidMessageAnswer, isPlain } from "./lines.js";

type Json = Record<string, unknown>;
type Message = Json & { jsonrpc: "2.0" };

/** The SDK side, loaded after the opening (a dynamic import, so a cold start never compiles it). */
export interface LoadedServer {
  /** The SDK's full check of a message the fast check was unsure of. */
  check(value: unknown): Message | undefined;
  /** Serve the session; every answer comes back through `send`. */
  open(send: (message: Message) => Promise<void>): {
    deliver(message: Message): void;
    close(): Promise<void>;
  };
  /** The 2026-07-28 revisions served, and the error for a request naming any other. */
  modernVersions: readonly string[];
  unsupportedVersion(id: string | number, requested: string): Message;
}

export interface StdioOptions {
  readOnly: boolean;
  input: Readable;
  output: FrameOutput;
  load(): Promise<LoadedServer>;
  /** Called once stdin has ended (after the session was closed) or loading failed. */
  onEnd(): void;
}

export interface StdioEntry {
  close(): Promise<void>;
}

const PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
/** Ids the replayed opening requests carry, so their second answers are known and dropped. */
const REPLAY_ID = "resmon-mcp/opening-replay-";

/**
 * The revision a request's `_meta` envelope names, when it names one as a string. The SDK checks it
 * only on the first message of a session; the spec asks it of every request (see below).
 */
function claimedVersion(message: Json): string | undefined {
  const params = message.params;
  if (message.id === undefined || !isPlain(params) || !isPlain(params._meta)) return undefined;
  const version = params._meta[PROTOCOL_VERSION];
  return typeof version === "string" ? version : undefined;
}

const isCallId = (id: unknown): id is string | number => typeof id === "string" || typeof id === "number";

/**
 * Tool calls held at once, running or with their answer waiting for stdout: beyond this, stdin is
 * not read until one is answered. Measured with 200 concurrent 100-paper pages of ~240 KiB a frame
 * and a slow reader, the server's peak RSS was 144–183 MB with 8 and 189 MB with 16 (the V8 heap
 * grows ahead of its collections), so 8, which a harness rarely exceeds in flight.
 */
export const MAX_OPEN_CALLS = 8;

const callIdOf = (value: unknown): string | number | undefined =>
  isPlain(value) && value.method === "tools/call" && isCallId(value.id) ? value.id : undefined;
const cancelledIdOf = (message: Json): string | number | undefined => {
  if (message.method !== "notifications/cancelled" || !isPlain(message.params)) return undefined;
  const id = message.params.requestId;
  return isCallId(id) ? id : undefined;
};

export function startStdio(options: StdioOptions): StdioEntry {
  const decoder = new StringDecoder("utf8");
  const writer = createFrameWriter(options.output);
  const writeFrame = (frame: string): Promise<void> => writer.write(scrub(frame));
  const writeMessage = (message: unknown) => void writeFrame(`${JSON.stringify(message)}\n`);
  const front = createFront(options.readOnly, writeFrame);

  let state: "front" | "loading" | "sdk" | "closed" = "front";
  let server: LoadedServer | undefined;
  let session: ReturnType<LoadedServer["open"]> | undefined;
  let ended = false;
  const taken: Json[] = [];
  const queued: { value: unknown; plain: boolean }[] = [];
  const replayIds = new Set<string>();

  const send = async (message: Message) => {
    const id = message.id;
    if (!("method" in message) && typeof id === "string" && replayIds.delete(id)) return;
    // Resolves once stdout has taken the frame; only then is the call's place given to the next.
    await writeFrame(`${JSON.stringify(message)}\n`);
    if (!("method" in message) && isCallId(id)) gate.closed(id);
  };

  const toSdk = (value: unknown, plain: boolean) => {
    const message = plain ? (value as Message) : server?.check(value);
    if (!message) {
      const answer = invalidMessageAnswer(value);
      if (answer) writeMessage(answer);
      return;
    }
    // 2026-07-28 schema, RequestMetaObject protocolVersion: "If the server does not support the
    // requested version, it MUST return an UnsupportedProtocolVersionError" (on every request; the
    // SDK's stdio entry checks only the opening one and serves the rest whatever they name).
    const claimed = claimedVersion(message);
    if (claimed !== undefined && server && !server.modernVersions.includes(claimed)) {
      writeMessage(server.unsupportedVersion(message.id as string | number, claimed));
      return;
    }
    const callId = callIdOf(message);
    if (callId !== undefined) gate.opened(callId);
    const cancelled = cancelledIdOf(message);
    // The SDK answers nothing to a call the client cancelled: its place is free now.
    if (cancelled !== undefined) gate.closed(cancelled);
    session?.deliver(message);
  };
  const gate = createCallGate({
    maxOpen: MAX_OPEN_CALLS,
    dispatch: toSdk,
    pause: () => options.input.pause(),
    resume: () => options.input.resume(),
  });

  const finish = async () => {
    if (state === "loading") return; // the hand-over finishes it
    state = "closed";
    await session?.close().catch(() => undefined);
    options.onEnd();
  };

  const handover = async () => {
    if (state !== "front") return;
    state = "loading";
    try {
      server = await options.load();
    } catch {
      process.exitCode = 1;
      options.onEnd();
      return;
    }
    session = server.open(send);
    state = "sdk";
    for (const [index, message] of taken.entries()) {
      if (message.id === undefined) {
        session.deliver(message as Message);
        continue;
      }
      const id = `${REPLAY_ID}${index}`;
      replayIds.add(id);
      session.deliver({ ...message, id } as unknown as Message);
    }
    taken.length = 0;
    for (const { value, plain } of queued.splice(0)) gate.offer(value, plain, callIdOf(value));
    if (ended) await finish();
  };

  const reader = createLineReader({
    deliver(value, plain) {
      if (isPlain(value) && value.method === "tools/call" && isCallId(value.id)) noteArrival(value.id);
      if (state === "sdk") return gate.offer(value, plain, callIdOf(value));
      if (state === "front" && plain && front.take(value as Json)) {
        taken.push(value as Json);
        // The session is under way: load the rest now, while the harness reads the list.
        if (front.listed) setImmediate(() => void handover());
        return;
      }
      if (state === "closed") return;
      queued.push({ value, plain });
      void handover();
    },
    answer: (error) => void writeMessage(error),
  });

  options.input.on("data", (chunk: Buffer | string) => {
    reader.push(typeof chunk === "string" ? chunk : decoder.write(chunk));
  });
  options.input.on("end", () => {
    ended = true;
    if (state === "front") {
      state = "closed";
      options.onEnd();
    } else void finish();
  });
  return {
    close: async () => {
      state = "closed";
      await session?.close().catch(() => undefined);
    },
  };
}
