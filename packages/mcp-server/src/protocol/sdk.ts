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
import { createEraCheck, MODERN_PROTOCOL_VERSIONS } from "../eras.js";
import { createHeldAnswers, type HeldAnswers } from "../held-answers.js";
import type { Answer, Progress, Refused, ToolHost } from "../host.js";
import { isPlain, type Json } from "../json.js";
import { log } from "../log.js";
import { NO_ELICITATION_VALIDATOR } from "../no-elicitation.js";
import { scrub } from "../scrub.js";
import { toolResult } from "../tool-result.js";
import { errorAnswer, type Id, invalidMessageAnswer } from "./lines.js";
import type { OpenSession, Session } from "./stdio.js";

export type { JSONRPCMessage };

/** The host's answer, or its refusal thrown as the protocol error the SDK sends. */
function answered(answer: Answer): never {
  if (isRefused(answer)) throw new ProtocolError(INVALID_PARAMS, answer.refused.message, answer.refused.data);
  return answer as never;
}
const isRefused = (answer: Answer): answer is Refused => "refused" in answer;

/** The 2025-era revisions `initialize` negotiates (newest first) and its answer to any other. */
export const LEGACY_PROTOCOL_VERSIONS: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS;
export const LEGACY_FALLBACK_VERSION: string = LATEST_PROTOCOL_VERSION;
export { MODERN_PROTOCOL_VERSIONS } from "../eras.js";

/** The SDK's full check of one JSON-RPC message: the message, or undefined when it is not one. */
export function checkMessage(value: unknown): JSONRPCMessage | undefined {
  try {
    return parseJSONRPCMessage(value);
  } catch {
    return undefined;
  }
}

/** One Server for one connection, in either era (serveStdio decides which). */
function buildServer(host: ToolHost, ended: (id: Id) => void, held: HeldAnswers): Server {
  const server = new Server(host.info, {
    capabilities: { tools: {}, prompts: {}, resources: {} },
    instructions: host.instructions,
    jsonSchemaValidator: NO_ELICITATION_VALIDATOR,
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
      held.hold(id, outcome.release, signal.aborted);
      return toolResult(outcome) as CallToolResult;
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

/**
 * Serve one stdio session of either era. `opening`, what the front answered (front.ts), is checked and
 * replayed under ids of its own, answers dropped, so the SDK is as it would be (and warm); then `done`.
 */
export function serveSession(host: ToolHost, ...[io, opening, done]: Parameters<OpenSession>): Session {
  let open = true;
  const eras = createEraCheck();
  const replayed = new Set<unknown>();
  const held = createHeldAnswers();
  /** The opening answers carry the host's `_meta` (contract version…): the SDK has no hook for it. */
  const openings = new Set<unknown>();
  const write = (message: Json) => {
    const answers = "method" in message ? undefined : (message.id as Id);
    if (!open || replayed.delete(answers)) return void (open && replayed.size === 0 && done?.());
    const { result } = message;
    if (openings.delete(answers) && isPlain(result))
      message = {
        ...message,
        result: { ...result, _meta: { ...(result._meta as Json), ...host.initializeMeta } },
      };
    io.write(`${scrub(JSON.stringify(message))}\n`, answers, held.take(answers));
  };
  const transport: Transport = {
    start: async () => undefined,
    send: async (message) => write(message as Json),
    async close() {
      if (!open) return;
      open = false;
      held.letGoAll();
      transport.onclose?.();
    },
  };
  const handle = serveStdio(() => buildServer(host, io.ended, held), {
    transport,
    onerror: (error) => log(`protocol: ${error.message}`),
  });
  const deliver = (message: Json) => {
    eras.seen(message);
    if (message.method === "initialize" || message.method === "server/discover") openings.add(message.id);
    transport.onmessage?.(message as JSONRPCMessage);
  };
  for (const [index, taken] of opening.entries()) {
    const message = "id" in taken ? { ...taken, id: `resmon-mcp/opening-replay-${index}` } : taken;
    if (message !== taken) replayed.add(message.id);
    deliver((checkMessage(message) as Json | undefined) ?? message);
  }
  return {
    deliver(value) {
      if (!open) return;
      const message = checkMessage(value) as Json | undefined;
      if (!message) {
        const answer = invalidMessageAnswer(value);
        return answer && write(answer);
      }
      const refusal = eras.refusal(message);
      const id = message.id as Id;
      if (refusal && "missingEnvelope" in refusal)
        return write(errorAnswer(id, -32602, `Invalid _meta envelope: _meta: ${refusal.missingEnvelope}`));
      if (refusal) {
        const supported = [...MODERN_PROTOCOL_VERSIONS];
        const error = new UnsupportedProtocolVersionError({ supported, requested: refusal.requested });
        return write(errorAnswer(id, error.code, error.message, error.data));
      }
      deliver(message);
    },
    close: () => handle.close(),
  };
}
