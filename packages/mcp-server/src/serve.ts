/**
 * What the MCP SDK (v2) needs from this server: a low-level Server per connection, served by the SDK's
 * dual-era `serveStdio` over a transport (the bin's: StdioServerTransport). On the way: frames out
 * scrubbed, a call's large answers held until its frame is out, bounds on open requests and unread
 * stdout, and the era checked on every request, not only the first (docs/protocol.md).
 */
import {
  type CallToolResult,
  INVALID_PARAMS,
  type JSONRPCMessage,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  type Server,
  type Transport,
  UnsupportedProtocolVersionError,
} from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import type { Answer, Progress, ToolHost } from "./host.js";
import { isPlain, type Json } from "./json.js";
import { log } from "./log.js";
import { NO_ELICITATION_VALIDATOR } from "./no-elicitation.js";
import { CheckedServer } from "./request-params.js";
import { scrubJson } from "./scrub.js";
import { toolResult } from "./tool-result.js";

type Id = string | number;
/**
 * Requests that read a body or a file (tool calls, resources/read and /list) running at once (200
 * concurrent 240 KiB pages, slow reader: 144–183 MB RSS with 8, 189 with 16).
 */
export const MAX_OPEN_CALLS = 8;
const READING = new Set(["tools/call", "resources/read", "resources/list"]);
/** Unread stdout past which nothing more is handed on (10,000 pipelined tools/list, stdout unread: 670 MB unbounded). */
export const MAX_HELD_CHARS = 1024 * 1024;
/** Requests handed on and not yet answered: their answers are counted before more go (as unread stdout is). */
const MAX_OPEN_REQUESTS = 32;
/** Messages waiting past which stdin is paused. */
const MAX_QUEUED = 256;
const MODERN = "2026-07-28";

/** The host's answer, or its refusal thrown as the protocol error the SDK sends. */
function answered(answer: Answer): never {
  if ("refused" in answer && isPlain(answer.refused))
    throw new ProtocolError(INVALID_PARAMS, String(answer.refused.message), answer.refused.data);
  return answer as never;
}

/** The streams under the transport, and what to do once it closes. */
export interface StdioStreams {
  input?: { pause(): unknown; resume(): unknown };
  output?: { readonly writableLength: number };
  closed?: () => void;
}

export function serve(
  host: ToolHost,
  wire: Transport,
  streams: StdioStreams = {},
): { close(): Promise<void> } {
  const held = new Map<Id, () => void>();
  /** Requests handed on and not yet answered, each marked whether it reads (READING). */
  const requests = new Map<Id, boolean>();
  const queue: Json[] = [];
  let closed = false;
  let paused = false;
  let era: "legacy" | "modern" | undefined;
  const isCall = (m: Json) => READING.has(String(m.method)) && "id" in m;
  const room = (m: Json) =>
    (streams.output?.writableLength ?? 0) < MAX_HELD_CHARS &&
    (!("id" in m && "method" in m) || requests.size < MAX_OPEN_REQUESTS) &&
    (!isCall(m) || [...requests.values()].filter(Boolean).length < MAX_OPEN_CALLS);
  /** Request `id` has answered or ended (if given): what it held goes, and what waits for room goes on. */
  const done = (id?: Id) => {
    if (id !== undefined) {
      held.get(id)?.();
      held.delete(id);
      requests.delete(id);
    }
    while (queue.length > 0 && room(queue[0] as Json)) hand(queue.shift() as Json);
    if (paused && queue.length < MAX_QUEUED / 2) {
      paused = false;
      streams.input?.resume();
    }
  };
  /** What an answer holds waits for its frame, or goes now when none will be written. */
  const keep = (id: Id, signal: AbortSignal, release?: () => void) => {
    if (release && (signal.aborted || closed)) release();
    else if (release) held.set(id, release);
  };

  const server = (): Server => {
    const s = new CheckedServer(host.info, {
      capabilities: { tools: {}, prompts: {}, resources: {} },
      instructions: host.instructions,
      jsonSchemaValidator: NO_ELICITATION_VALIDATOR,
    });
    // Entries go out as built (the SDK does not re-validate them): top-level requires_confirmation stays.
    s.setRequestHandler("tools/list", async () => ({ tools: host.listTools() }) as never);
    s.setRequestHandler("tools/call", async ({ params }, ctx): Promise<CallToolResult> => {
      const { signal, id, _meta } = ctx.mcpReq;
      const token = _meta?.progressToken;
      const progress = (note: Progress) =>
        ctx.mcpReq.notify({ method: "notifications/progress", params: { progressToken: token, ...note } });
      try {
        const outcome = await host.callTool(
          params.name,
          params.arguments,
          signal,
          token === undefined ? undefined : (n) => progress(n).catch(() => undefined),
        );
        keep(id, signal, outcome.release);
        return toolResult(outcome) as CallToolResult;
      } finally {
        // The SDK answers nothing to a cancelled call: its place is free once its work has ended.
        if (signal.aborted) done(id);
      }
    });
    s.setRequestHandler("prompts/list", async () => ({ prompts: await host.prompts.list() }) as never);
    s.setRequestHandler("prompts/get", async (r) =>
      answered(await host.prompts.get(r.params.name, r.params.arguments)),
    );
    s.setRequestHandler("resources/list", async (r) => answered(await host.resources.list(r.params?.cursor)));
    s.setRequestHandler("resources/templates/list", async () => ({
      resourceTemplates: (await host.resources.templates()) as never,
    }));
    s.setRequestHandler("resources/read", async (r, ctx) => {
      const { signal, id } = ctx.mcpReq;
      try {
        const { answer, release } = await host.resources.read(r.params.uri, signal);
        keep(id, signal, release);
        return answered(answer);
      } finally {
        if (signal.aborted) done(id);
      }
    });
    return s;
  };

  const gated: Transport = {
    start: () => wire.start(),
    close: () => wire.close(),
    async send(message, options) {
      try {
        await wire.send(scrubJson(message), options);
      } finally {
        // The frame has left (or never will): its request's room and place are free, and stdout has room.
        done("method" in message ? undefined : (message.id as Id | undefined));
      }
    },
  };
  /** A request claiming a revision not served, or none after a 2026-07-28 opening, is refused. */
  const refusal = (m: Json): { code: number; message: string; data?: unknown } | undefined => {
    const meta = isPlain(m.params) && isPlain(m.params._meta) ? m.params._meta : {};
    const claim = typeof meta[PROTOCOL_VERSION_META_KEY] === "string" ? meta[PROTOCOL_VERSION_META_KEY] : "";
    let requested = claim && claim !== MODERN ? claim : undefined;
    if (era === "modern" && claim === "") {
      if (m.method !== "initialize")
        return {
          code: INVALID_PARAMS,
          message: `Invalid _meta envelope: _meta: the per-request envelope is required on protocol revision ${MODERN}`,
        };
      const asked = isPlain(m.params) ? m.params.protocolVersion : undefined;
      requested = typeof asked === "string" ? asked : "unknown";
    }
    if (requested === undefined) {
      era ??= claim ? "modern" : "legacy";
      return undefined;
    }
    const error = new UnsupportedProtocolVersionError({ supported: [MODERN], requested });
    return { code: error.code, message: error.message, data: error.data };
  };
  function hand(m: Json): void {
    const refused = "id" in m ? refusal(m) : undefined;
    if (refused)
      return void gated.send({ jsonrpc: "2.0", id: m.id as Id, error: refused }).catch(() => undefined);
    if ("id" in m && "method" in m) requests.set(m.id as Id, isCall(m));
    gated.onmessage?.(m as JSONRPCMessage);
  }
  wire.onmessage = (message) => {
    const m = message as Json;
    // A cancel overtakes the queue: a waiting call is dropped unrun (the protocol answers nothing to it).
    const params = m.method === "notifications/cancelled" && isPlain(m.params) ? m.params : undefined;
    const waiting = params ? queue.findIndex((q) => isCall(q) && q.id === params.requestId) : -1;
    if (waiting >= 0) return void queue.splice(waiting, 1);
    // A cancelled request other than a call may never be answered: its place is free now.
    if (params && requests.get(params.requestId as Id) === false) requests.delete(params.requestId as Id);
    if (params || (queue.length === 0 && room(m))) return hand(m);
    queue.push(m);
    if (!paused && queue.length > MAX_QUEUED) {
      paused = true;
      streams.input?.pause();
    }
  };
  wire.onclose = () => {
    closed = true;
    for (const release of held.values()) release();
    held.clear();
    gated.onclose?.();
    streams.closed?.();
  };
  wire.onerror = (error) => gated.onerror?.(error);
  return serveStdio(server, { transport: gated, onerror: (error) => log(`protocol: ${error.message}`) });
}
