/**
 * The only module that imports the MCP SDK (v2): its low-level Server (this package decides exactly
 * what tools/list advertises and what a call answers) behind serveStdio, which serves both eras from
 * one factory. stdio.ts feeds it parsed lines; every frame leaves here scrubbed, once.
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
import type { Answer, Progress, Refused, ToolHost } from "../host.js";
import { log } from "../log.js";
import { scrub } from "../scrub.js";
import { errorAnswer, invalidMessageAnswer, isPlain } from "./lines.js";
import type { OpenSession, Session } from "./stdio.js";

export type { JSONRPCMessage };

type Json = Record<string, unknown>;
type Id = string | number;

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
const PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";

/** The SDK's full check of one JSON-RPC message: the message, or undefined when it is not one. */
export function checkMessage(value: unknown): JSONRPCMessage | undefined {
  try {
    return parseJSONRPCMessage(value);
  } catch {
    return undefined;
  }
}

/** One Server for one connection, in either era (serveStdio decides which). */
function buildServer(host: ToolHost, ended: (id: Id) => void): Server {
  const server = new Server(host.info, {
    capabilities: { tools: {}, prompts: {}, resources: {} },
    instructions: host.instructions,
    // This server never asks the client for input, so the elicitation-answer validator (Ajv) is
    // never needed: one that refuses stands in, and start-up does not build it.
    jsonSchemaValidator: {
      getValidator: () => {
        throw new Error("resmon-mcp elicits nothing, so it validates no elicitation schema.");
      },
    },
  });
  // Entries go out as built (the SDK does not re-validate them): top-level requires_confirmation stays.
  server.setRequestHandler("tools/list", async () => ({ tools: host.listTools() }) as never);
  server.setRequestHandler("tools/call", async (request, ctx): Promise<CallToolResult> => {
    const { signal, id, _meta } = ctx.mcpReq;
    const token = _meta?.progressToken;
    const progress =
      token === undefined
        ? undefined
        : (note: Progress) =>
            ctx.mcpReq
              .notify({ method: "notifications/progress", params: { progressToken: token, ...note } })
              .catch(() => undefined);
    try {
      const outcome = await host.callTool(request.params.name, request.params.arguments, signal, progress);
      // structuredContent (SDK clients check it against the output schema) only on success.
      const text = JSON.stringify(outcome.ok ? outcome.answer : outcome.error);
      const links = (outcome.ok ? (outcome.links ?? []) : []) as CallToolResult["content"];
      const content: CallToolResult["content"] = [{ type: "text", text }, ...links];
      return outcome.ok ? { content, structuredContent: outcome.answer } : { content, isError: true };
    } finally {
      // The SDK answers nothing to a cancelled call: its place is free once its work has ended.
      if (signal.aborted) ended(id);
    }
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

/** The revision a request's envelope names, "" for a request with none, undefined for a notification. */
function claimOf(message: Json): string | undefined {
  if (!("id" in message)) return undefined;
  const meta = isPlain(message.params) && isPlain(message.params._meta) ? message.params._meta : {};
  return typeof meta[PROTOCOL_VERSION] === "string" ? meta[PROTOCOL_VERSION] : "";
}

/**
 * What the SDK's entry serves but the 2026-07-28 schema or docs/protocol.md refuses: a revision not
 * served, on any request (it checks only the first); after a 2026-07-28 opening, even `server/discover`
 * (to it a probe it may fall back from), `initialize` (-32022) and a request without envelope (-32602).
 */
function eraRefusal(message: Json, era: string | undefined): Json | undefined {
  const claim = claimOf(message);
  const params = isPlain(message.params) ? message.params : {};
  let requested = claim && !MODERN_PROTOCOL_VERSIONS.includes(claim) ? claim : undefined;
  if (era === "modern" && claim === "") {
    if (message.method !== "initialize") {
      const missing = "the per-request envelope is required on protocol revision 2026-07-28";
      return errorAnswer(message.id as Id, -32602, `Invalid _meta envelope: _meta: ${missing}`);
    }
    requested = typeof params.protocolVersion === "string" ? params.protocolVersion : "unknown";
  }
  if (requested === undefined) return undefined;
  const error = new UnsupportedProtocolVersionError({ supported: [...MODERN_PROTOCOL_VERSIONS], requested });
  return errorAnswer(message.id as Id, error.code, error.message, error.data);
}

/**
 * Serve one stdio session of either era. `opening`, what the front answered already (front.ts), is
 * replayed first under ids of its own whose answers are dropped, so the SDK's state is as it would be.
 */
export function serveSession(host: ToolHost, ...[io, opening]: Parameters<OpenSession>): Session {
  let open = true;
  /** The session's era, fixed by its first request. */
  let era: "legacy" | "modern" | undefined;
  const replayed = new Set<unknown>();
  /** The opening answers carry the host's `_meta` (contract version…): the SDK has no hook for it. */
  const openings = new Set<unknown>();
  const write = (message: Json) => {
    const answers = "method" in message ? undefined : (message.id as Id);
    if (!open || replayed.delete(answers)) return;
    const { result } = message;
    if (openings.delete(answers) && isPlain(result))
      message = {
        ...message,
        result: { ...result, _meta: { ...(result._meta as Json), ...host.initializeMeta } },
      };
    io.write(`${scrub(JSON.stringify(message))}\n`, answers);
  };
  const transport: Transport = {
    start: async () => undefined,
    send: async (message) => write(message as Json),
    async close() {
      if (!open) return;
      open = false;
      transport.onclose?.();
    },
  };
  const handle = serveStdio(() => buildServer(host, io.ended), {
    transport,
    onerror: (error) => log(`protocol: ${error.message}`),
  });
  const deliver = (message: Json) => {
    if ("id" in message) era ??= claimOf(message) ? "modern" : "legacy";
    if (message.method === "initialize" || message.method === "server/discover") openings.add(message.id);
    transport.onmessage?.(message as JSONRPCMessage);
  };
  for (const [index, message] of opening.entries()) {
    const id = `resmon-mcp/opening-replay-${index}`;
    if ("id" in message) replayed.add(id);
    deliver("id" in message ? { ...message, id } : message);
  }
  return {
    deliver(value) {
      if (!open) return;
      const message = checkMessage(value) as Json | undefined;
      if (!message) {
        const answer = invalidMessageAnswer(value);
        return answer && write(answer);
      }
      const refusal = eraRefusal(message, era);
      if (refusal) return write(refusal);
      deliver(message);
    },
    close: () => handle.close(),
  };
}
