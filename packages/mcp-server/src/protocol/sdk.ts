/**
 * The only module that imports the MCP SDK (@modelcontextprotocol/server, v2). It uses the
 * low-level Server so this package decides exactly what tools/list advertises (resmon's top-level
 * requires_confirmation included) and what a call answers, and the SDK's serveStdio entry, which
 * serves both protocol eras from one factory: the 2025 `initialize` handshake and the 2026-07-28
 * per-request `_meta` envelope with `server/discover`. The entry is handed a transport made here,
 * fed parsed messages by the stdio seam (stdio.ts), so each line is parsed once.
 */

import {
  type CallToolResult,
  INVALID_PARAMS,
  type JSONRPCMessage,
  LATEST_PROTOCOL_VERSION,
  ProtocolError,
  parseJSONRPCMessage,
  Server,
  SUPPORTED_PROTOCOL_VERSIONS,
  type Transport,
  UnsupportedProtocolVersionError,
} from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { takeArrival } from "./arrivals.js";

export type { JSONRPCMessage, Transport };

type Json = Record<string, unknown>;

export interface ToolCallOutcome {
  /** Compact JSON of the answer or the error envelope. */
  text: string;
  /** The success answer; omitted on errors (SDK clients validate it against the output schema). */
  structured?: Record<string, unknown>;
  isError: boolean;
  /** Content blocks after the text (resource_link blocks of a finished scan's evidence). */
  links?: Record<string, unknown>[];
}

/** A request the host refuses: answered -32602 with the contract's `{error, message, detail}` as data. */
export interface Refused {
  refused: { message: string; data: Record<string, unknown> };
}
type Answer = Record<string, unknown> | Refused;

export interface ToolHost {
  info: { name: string; version: string; title?: string; description?: string };
  instructions: string;
  /** Added to the opening answer's _meta (initialize, server/discover): the contract version etc. */
  initializeMeta: Record<string, unknown>;
  listTools(): readonly Record<string, unknown>[];
  /**
   * `receivedAt`: when the call's line arrived (epoch ms), where the stdio entry noted it. `progress`
   * is given only when the request carried `_meta.progressToken`: each call sends one
   * `notifications/progress` for it (the host decides how often; never after the call answers).
   */
  callTool(
    name: string,
    args: unknown,
    receivedAt?: number,
    progress?: (note: { progress: number; total?: number; message: string }) => Promise<void>,
  ): Promise<ToolCallOutcome>;
  prompts: { list(): Record<string, unknown>[]; get(name: string, args?: Record<string, string>): Answer };
  resources: {
    list(cursor?: string): Promise<Answer>;
    templates(): Record<string, unknown>[];
    read(uri: string): Promise<Answer>;
  };
}

/** The host's answer, or its refusal thrown as the protocol error the SDK sends. */
function answered(answer: Answer): never {
  if (isRefused(answer)) throw new ProtocolError(INVALID_PARAMS, answer.refused.message, answer.refused.data);
  return answer as never;
}
const isRefused = (answer: Answer): answer is Refused => "refused" in answer;

/** The 2025-era revisions `initialize` negotiates (newest first) and its answer to any other. */
export const LEGACY_PROTOCOL_VERSIONS: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS;
export const LEGACY_FALLBACK_VERSION: string = LATEST_PROTOCOL_VERSION;
/** The 2026-era revisions served per request (the `_meta` envelope's protocolVersion). */
export const MODERN_PROTOCOL_VERSIONS: readonly string[] = ["2026-07-28"];

/** The SDK's full check of one JSON-RPC message: the message, or undefined when it is not one. */
export function checkMessage(value: unknown): JSONRPCMessage | undefined {
  try {
    return parseJSONRPCMessage(value);
  } catch {
    return undefined;
  }
}

/** The 2026-07-28 UnsupportedProtocolVersionError answer to request `id`, as the SDK words it. */
export function unsupportedVersionAnswer(id: string | number, requested: string): JSONRPCMessage {
  const error = new UnsupportedProtocolVersionError({ supported: [...MODERN_PROTOCOL_VERSIONS], requested });
  return { jsonrpc: "2.0", id, error: { code: error.code, message: error.message, data: error.data } };
}

function refuseElicitationSchemas(): never {
  throw new Error("resmon-mcp does not elicit input from the client, so it validates no elicitation schema.");
}

/** The tools/call result for an outcome: what the SDK's handler returns. */
function callResult(outcome: ToolCallOutcome): CallToolResult {
  const result: CallToolResult = {
    content: [{ type: "text", text: outcome.text }, ...((outcome.links ?? []) as CallToolResult["content"])],
  };
  if (outcome.structured) result.structuredContent = outcome.structured;
  if (outcome.isError) result.isError = true;
  return result;
}

/** One Server for one connection, in either era (serveStdio decides which). */
function buildServer(host: ToolHost): Server {
  const server = new Server(host.info, {
    capabilities: { tools: {}, prompts: {}, resources: {} },
    instructions: host.instructions,
    // This server never asks the client for input, so the elicitation-answer validator (Ajv) is
    // never needed: one that refuses stands in, and start-up does not build it.
    jsonSchemaValidator: { getValidator: refuseElicitationSchemas },
  });
  // Entries go out as built: the SDK does not re-validate tools/list, so resmon's top-level
  // requires_confirmation reaches a raw-JSON reader intact.
  server.setRequestHandler("tools/list", async () => ({ tools: host.listTools() }) as never);
  server.setRequestHandler("tools/call", async (request, ctx): Promise<CallToolResult> => {
    const receivedAt = takeArrival(ctx.mcpReq.id);
    const token = ctx.mcpReq._meta?.progressToken;
    const progress =
      token === undefined
        ? undefined
        : (note: { progress: number; total?: number; message: string }) =>
            ctx.mcpReq
              .notify({ method: "notifications/progress", params: { progressToken: token, ...note } })
              .catch(() => undefined);
    const outcome = await host.callTool(request.params.name, request.params.arguments, receivedAt, progress);
    return callResult(outcome);
  });
  server.setRequestHandler("prompts/list", async () => ({ prompts: host.prompts.list() }) as never);
  server.setRequestHandler("prompts/get", async (r) =>
    answered(host.prompts.get(r.params.name, r.params.arguments)),
  );
  server.setRequestHandler("resources/list", async (r) =>
    answered(await host.resources.list(r.params?.cursor)),
  );
  server.setRequestHandler("resources/templates/list", async () => ({
    resourceTemplates: host.resources.templates() as never,
  }));
  server.setRequestHandler("resources/read", async (r) => answered(await host.resources.read(r.params.uri)));
  return server;
}

/** The methods whose answers (the SDK's own, built by its Server) carry the host's `_meta` too. */
const OPENING_METHODS: ReadonlySet<unknown> = new Set(["initialize", "server/discover"]);

/**
 * The SDK's answers to the opening requests, with the host's `_meta` (contract version, read-only)
 * added as they go out. The SDK exposes no hook for an opening answer's `_meta`, so this is done
 * on the wire, between its Server and the transport, by request id: `noteInbound` sees every
 * message the SDK is given, `outbound` every message it sends.
 */
function openingMeta(meta: Record<string, unknown>) {
  const openingIds = new Set<unknown>();
  return {
    noteInbound(message: JSONRPCMessage): void {
      const m = message as Json;
      if (OPENING_METHODS.has(m.method) && m.id !== undefined) openingIds.add(m.id);
    },
    outbound(message: JSONRPCMessage): JSONRPCMessage {
      const m = message as Json;
      if ("method" in m || !openingIds.delete(m.id)) return message;
      const result = m.result as Json | undefined;
      if (result === undefined) return message;
      const own = (result._meta ?? {}) as Json;
      return { ...m, result: { ...result, _meta: { ...own, ...meta } } } as JSONRPCMessage;
    },
  };
}

export interface Session {
  /** One inbound message, already parsed and checked. */
  deliver(message: JSONRPCMessage): void;
  close(): Promise<void>;
}

export interface SessionOptions {
  onError?: (error: Error) => void;
}

/**
 * Serve one connection of either era. `send` receives every answer as a message (the seam writes
 * it); `onError` gets the SDK's out-of-band reports.
 */
export function serveSession(
  host: ToolHost,
  send: (message: JSONRPCMessage) => Promise<void>,
  options: SessionOptions = {},
): Session {
  let open = true;
  const opening = openingMeta(host.initializeMeta);
  const transport: Transport = {
    async start() {},
    async send(message) {
      if (open) await send(opening.outbound(message));
    },
    async close() {
      if (!open) return;
      open = false;
      transport.onclose?.();
    },
  };
  const handle = serveStdio(() => buildServer(host), {
    transport,
    onerror: options.onError ?? (() => undefined),
  });
  return {
    deliver: (message) => {
      if (!open) return;
      opening.noteInbound(message);
      transport.onmessage?.(message);
    },
    close: () => handle.close(),
  };
}

/** Serve one connection over a transport of the caller's (tests: an in-memory pair). */
export function serveTransport(host: ToolHost, wire: Transport): { close(): Promise<void> } {
  const opening = openingMeta(host.initializeMeta);
  // The SDK drives this wrapper as it would `wire`; only the opening answers are touched.
  const transport: Transport = {
    start: () => wire.start(),
    close: () => wire.close(),
    send: (message, options) => wire.send(opening.outbound(message), options),
  };
  wire.onmessage = (message, extra) => {
    opening.noteInbound(message);
    transport.onmessage?.(message, extra);
  };
  wire.onclose = () => transport.onclose?.();
  wire.onerror = (error) => transport.onerror?.(error);
  return serveStdio(() => buildServer(host), { transport });
}
