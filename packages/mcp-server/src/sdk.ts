/**
 * The only module that imports @modelcontextprotocol/sdk, so a move to the split v2 packages
 * touches this file alone. It uses the low-level Server so this package decides exactly what
 * tools/list advertises (resmon's top-level requires_confirmation included) and what a call answers.
 */

import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  type InitializeRequest,
  InitializeRequestSchema,
  type InitializeResult,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  ListToolsRequestSchema,
  type ListToolsResult,
} from "@modelcontextprotocol/sdk/types.js";
import { createLineReader, errorFrame } from "./jsonrpc-lines.js";

export interface ToolCallOutcome {
  /** Compact JSON of the answer or the error envelope. */
  text: string;
  /** The success answer; omitted on errors (SDK clients validate it against the output schema). */
  structured?: Record<string, unknown>;
  /** JSON.stringify(structured), when already made (the stdio fast path writes it as it is). */
  structuredJson?: string;
  isError: boolean;
}

export interface ToolHost {
  info: { name: string; version: string; title?: string; description?: string };
  instructions: string;
  /** Added to the initialize result's _meta (e.g. the contract version), kept by SDK clients. */
  initializeMeta: Record<string, unknown>;
  listTools(): readonly Record<string, unknown>[];
  callTool(name: string, args: unknown): Promise<ToolCallOutcome>;
}

export interface StdioOptions {
  /** Every frame written passes through it (the front's hand-over, token scrubbing); "" drops it. */
  filter: (frame: string) => string;
  output?: Pick<NodeJS.WritableStream, "write" | "once">;
}

export interface McpServerHandle {
  connect(transport: Transport): Promise<void>;
  /** Serve over stdio: resolves with where to push decoded stdin text. */
  connectStdio(options: StdioOptions): Promise<StdioLineTransport>;
  close(): Promise<void>;
}

type Initialize = (request: InitializeRequest) => Promise<InitializeResult>;

function refuseElicitationSchemas(): never {
  throw new Error("resmon-mcp does not elicit input from the client, so it validates no elicitation schema.");
}

export function createMcpServer(host: ToolHost): McpServerHandle {
  const server = new Server(host.info, {
    capabilities: { tools: {} },
    instructions: host.instructions,
    // The SDK builds an Ajv instance (about 10 ms of the first call) to check elicitation answers;
    // this server never asks the client for input, so a validator that refuses stands in.
    jsonSchemaValidator: { getValidator: refuseElicitationSchemas },
  });

  // The SDK answers initialize itself; wrap that answer to add our _meta rather than re-implement it.
  const sdkInitialize = (server as unknown as { _oninitialize: Initialize })._oninitialize.bind(server);
  server.setRequestHandler(InitializeRequestSchema, async (request) => {
    const result = await sdkInitialize(request);
    return { ...result, _meta: { ...(result._meta ?? {}), ...host.initializeMeta } };
  });

  // Entries go out as built: the SDK's server does not re-validate tools/list, so resmon's
  // top-level requires_confirmation reaches a raw-JSON reader intact.
  server.setRequestHandler(
    ListToolsRequestSchema,
    async () => ({ tools: host.listTools() }) as unknown as ListToolsResult,
  );

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const outcome = await host.callTool(request.params.name, request.params.arguments);
    const result: CallToolResult = { content: [{ type: "text", text: outcome.text }] };
    if (outcome.structured) result.structuredContent = outcome.structured;
    if (outcome.isError) result.isError = true;
    return result;
  });

  return {
    connect: (transport) => server.connect(transport),
    async connectStdio({ filter, output }) {
      const transport = createStdioTransport(filter, output, host.callTool);
      await server.connect(transport);
      return transport;
    },
    close: () => server.close(),
  };
}

type Id = string | number;

/** `_meta` that ties a request to a task: the SDK's task machinery handles those. */
const RELATED_TASK = "io.modelcontextprotocol/related-task";

/**
 * A tools/call of the shape clients send: params `name`, optional `arguments`, and optional `_meta`
 * (a progress token, a client's own keys; this server sends no progress, so they change nothing)
 * unless it names a related task. No `task`, no other key. Its id, name and arguments, or undefined
 * for any other message. The message has passed the JSON-RPC check by then (the SDK's schema, when
 * `_meta` is present).
 */
export function plainToolCall(message: unknown): { id: Id; name: string; args: unknown } | undefined {
  const m = message as { id?: unknown; method?: unknown; params?: Record<string, unknown> };
  if (m.method !== "tools/call" || m.id === undefined || m.params === undefined) return undefined;
  const { name, arguments: args, _meta: meta } = m.params;
  if (typeof name !== "string") return undefined;
  for (const key in m.params) if (key !== "name" && key !== "arguments" && key !== "_meta") return undefined;
  if (
    meta !== undefined &&
    (typeof meta !== "object" || meta === null || Array.isArray(meta) || RELATED_TASK in meta)
  )
    return undefined;
  if (args !== undefined && (typeof args !== "object" || args === null || Array.isArray(args)))
    return undefined;
  return { id: m.id as Id, name, args };
}

/**
 * The answer frame to a tools/call, byte for byte as the SDK's Server writes it (a test holds the
 * two paths to that); structuredContent is the answer's JSON as already made, not serialized again.
 */
export function toolCallFrame(id: Id, outcome: ToolCallOutcome): string {
  const text = `{"type":"text","text":${JSON.stringify(outcome.text)}}`;
  const structured = outcome.structured
    ? `,"structuredContent":${outcome.structuredJson ?? JSON.stringify(outcome.structured)}`
    : "";
  const isError = outcome.isError ? ',"isError":true' : "";
  return `{"result":{"content":[${text}]${structured}${isError}},"jsonrpc":"2.0","id":${JSON.stringify(id)}}\n`;
}

/** A stdio transport fed by the start-up front: it takes decoded stdin text and writes frames. */
export interface StdioLineTransport extends Transport {
  /** Decoded stdin text; every complete line is parsed, checked and delivered before this returns. */
  push(text: string): void;
}

/**
 * The server's stdio transport: one JSON.parse and at most one schema check per message (the SDK's
 * StdioServerTransport behind a separate validating gate did both twice, through two more streams).
 * Every frame written goes through `filter` (the front's hand-over and token scrubbing); a frame the
 * filter empties is not written.
 *
 * With `callTool`, a plain tools/call (see plainToolCall) is answered here, straight from the tool
 * host, rather than through the SDK's Protocol, which would discriminate the message with three
 * schema parses (two of them failing, each building an error), parse the request twice more, open
 * an AbortController and parse the result: a health call's own work in the server is 157 µs that
 * way against 59 µs here (`pnpm bench`, tools/bench/RESULTS.md). Everything else (initialize, ping, tools/list,
 * notifications, a call tied to a task or carrying unknown params) goes to the SDK. A notifications/cancelled for a call in flight
 * here drops its answer, as the SDK does for its own.
 */
export function createStdioTransport(
  filter: (text: string) => string,
  output: Pick<NodeJS.WritableStream, "write" | "once"> = process.stdout,
  callTool?: (name: string, args: unknown) => Promise<ToolCallOutcome>,
): StdioLineTransport {
  const out = (frame: string): boolean => {
    const text = filter(frame);
    return text.length > 0 ? output.write(text) : true;
  };
  let started = false;
  /** Calls answered here and still running: id → cancelled. */
  const inFlight = new Map<Id, boolean>();
  const answerHere = (
    call: { id: Id; name: string; args: unknown },
    run: (name: string, args: unknown) => Promise<ToolCallOutcome>,
  ) => {
    inFlight.set(call.id, false);
    const settle = (frame: string) => {
      const cancelled = inFlight.get(call.id);
      inFlight.delete(call.id);
      if (started && cancelled === false) out(frame);
    };
    // The host answers every failure as a tool error; a rejection here would be a bug, answered
    // as the SDK would answer it (-32603), never left unanswered.
    run(call.name, call.args).then(
      (outcome) => settle(toolCallFrame(call.id, outcome)),
      () => settle(errorFrame(call.id, -32603, "Internal error")),
    );
  };
  const noteCancellation = (message: unknown) => {
    const m = message as { method?: unknown; params?: { requestId?: unknown } };
    const id = m.method === "notifications/cancelled" ? m.params?.requestId : undefined;
    if ((typeof id === "string" || typeof id === "number") && inFlight.has(id)) inFlight.set(id, true);
  };
  const transport: StdioLineTransport = {
    async start() {
      started = true;
    },
    push(text) {
      if (started) reader.push(text);
    },
    async send(message) {
      // Like the SDK's transport: resolve once the frame is written or, under backpressure, drained.
      if (!out(`${JSON.stringify(message)}\n`)) await new Promise((resolve) => output.once("drain", resolve));
    },
    async close() {
      started = false;
      transport.onclose?.();
    },
  };
  const reader = createLineReader({
    validate: (value) => {
      const parsed = JSONRPCMessageSchema.safeParse(value);
      return parsed.success ? parsed.data : undefined;
    },
    deliver: (message) => {
      const call = callTool ? plainToolCall(message) : undefined;
      if (call && callTool) {
        answerHere(call, callTool);
        return;
      }
      noteCancellation(message);
      transport.onmessage?.(message as JSONRPCMessage);
    },
    answer: (frame) => void out(frame),
  });
  return transport;
}
