/**
 * The only module that imports @modelcontextprotocol/sdk, so a move to the split v2 packages
 * touches this file alone. It uses the low-level Server so this package decides exactly what
 * tools/list advertises (resmon's top-level requires_confirmation included) and what a call answers.
 */
import { Writable } from "node:stream";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  type InitializeRequest,
  InitializeRequestSchema,
  type InitializeResult,
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
 * it reaches the real stdout.
 */
export function createStdioTransport(filter: (text: string) => string): Transport {
  const out = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      const text = typeof chunk === "string" ? chunk : chunk.toString("utf8");
      process.stdout.write(filter(text), callback);
    },
  });
  return new StdioServerTransport(process.stdin, out);
}
