/**
 * The only module that imports @modelcontextprotocol/sdk, so a move to the split v2 packages
 * touches this file alone. It uses the low-level Server so this package decides exactly what
 * tools/list advertises (resmon's top-level requires_confirmation included) and what a call answers.
 */

import { type Readable, Transform, Writable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  type InitializeRequest,
  InitializeRequestSchema,
  type InitializeResult,
  JSONRPCMessageSchema,
  ListToolsRequestSchema,
  type ListToolsResult,
} from "@modelcontextprotocol/sdk/types.js";

export interface ToolCallOutcome {
  /** Compact JSON of the answer or the error envelope. */
  text: string;
  /** The success answer; omitted on errors (SDK clients validate it against the output schema). */
  structured?: Record<string, unknown>;
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

export interface McpServerHandle {
  connect(transport: Transport): Promise<void>;
  close(): Promise<void>;
}

type Initialize = (request: InitializeRequest) => Promise<InitializeResult>;

export function createMcpServer(host: ToolHost): McpServerHandle {
  const server = new Server(host.info, { capabilities: { tools: {} }, instructions: host.instructions });

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
    close: () => server.close(),
  };
}

/**
 * A stdio transport whose stdout passes every frame through `filter` (token scrubbing) before
 * it reaches the real stdout. It reads `input` (stdin, or the start-up front's hand-over stream).
 */
export function createStdioTransport(
  filter: (text: string) => string,
  input: Readable = process.stdin,
): Transport {
  const out = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      const text = typeof chunk === "string" ? chunk : chunk.toString("utf8");
      process.stdout.write(filter(text), callback);
    },
  });
  const gate = jsonRpcLineGate((frame) => out.write(frame));
  input.pipe(gate);
  return new StdioServerTransport(gate, out);
}

function errorFrame(id: string | number | null, code: number, message: string): string {
  return `${JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } })}\n`;
}

/** The SDK's own stdio buffer limit: a longer line would end the session. */
const MAX_LINE = 10 * 1024 * 1024;

/**
 * JSON-RPC 2.0 answers a line that is not JSON with -32700 and one that is not a valid message
 * with -32600; the SDK's stdio transport drops both without a word, leaving a client waiting. This
 * passes each valid line through unchanged and answers the others. A line over 10 MiB is dropped
 * and answered -32600 (id null) instead of ending the session.
 */
export function jsonRpcLineGate(answer: (frame: string) => void): Transform {
  const decoder = new StringDecoder("utf8");
  // The line so far, as pieces (joined once a newline arrives: no quadratic re-scan of a long line).
  let parts: string[] = [];
  let pendingLength = 0;
  let discarding = false;
  const check = (line: string): string | null => {
    if (line.trim() === "") return null;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      answer(errorFrame(null, -32700, "Parse error"));
      return null;
    }
    if (JSONRPCMessageSchema.safeParse(value).success) return line;
    const record =
      value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
    // A malformed response or error from the client has nothing to answer.
    if (record && !("method" in record) && ("result" in record || "error" in record)) return null;
    const id = typeof record?.id === "string" || typeof record?.id === "number" ? record.id : null;
    answer(errorFrame(id, -32600, "Invalid Request"));
    return null;
  };
  return new Transform({
    transform(chunk: Buffer | string, _encoding, callback) {
      const text = typeof chunk === "string" ? chunk : decoder.write(chunk);
      let out = "";
      let start = 0;
      let nl = text.indexOf("\n");
      while (nl >= 0) {
        const piece = text.slice(start, nl);
        if (discarding || pendingLength + piece.length > MAX_LINE) {
          answer(errorFrame(null, -32600, "Invalid Request: a line longer than 10 MiB was dropped"));
        } else {
          const passed = check((parts.join("") + piece).replace(/\r$/, ""));
          if (passed !== null) out += `${passed}\n`;
        }
        parts = [];
        pendingLength = 0;
        discarding = false;
        start = nl + 1;
        nl = text.indexOf("\n", start);
      }
      const rest = text.slice(start);
      if (!discarding && rest.length > 0) {
        parts.push(rest);
        pendingLength += rest.length;
        if (pendingLength > MAX_LINE) {
          discarding = true;
          parts = [];
          pendingLength = 0;
        }
      }
      callback(null, out.length > 0 ? out : undefined);
    },
  });
}
