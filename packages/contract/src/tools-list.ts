import { toToolJsonSchema } from "./json-schema.js";
import { TOOLS } from "./table.js";
import type { ToolDef } from "./types.js";

/** One entry of tools/list, as this server advertises it. */
export interface ToolsListEntry {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations: Record<string, boolean>;
  /** resmon's own flag, top-level as resmon's server emits it. */
  requires_confirmation: boolean;
  /** The same flag where SDK clients keep it (they drop unknown top-level keys). */
  _meta: { requires_confirmation: boolean };
}

export interface ToolsListOptions {
  /** Only the tools whose requires_confirmation is false (RESMON_MCP_READ_ONLY=1). */
  readOnly?: boolean;
  /** Advertise output schemas (default true). */
  outputSchemas?: boolean;
}

/**
 * What a read-only session (RESMON_MCP_READ_ONLY=1) lists and calls: the tools whose
 * requires_confirmation is false. The one predicate both tools/list and the call path use.
 */
export function isListedReadOnly(tool: ToolDef): boolean {
  return !tool.requiresConfirmation;
}

/**
 * The hints MCP reads. destructiveHint and idempotentHint mean something only when readOnlyHint is
 * false, so a read says only that it reads and whether it leaves the machine; a write says all four.
 */
function wireAnnotations(tool: ToolDef): Record<string, boolean> {
  const { readOnlyHint, destructiveHint, idempotentHint, openWorldHint } = tool.annotations;
  return readOnlyHint
    ? { readOnlyHint, openWorldHint }
    : { readOnlyHint, destructiveHint, idempotentHint, openWorldHint };
}

/**
 * The answer's promise on the wire: an object that always carries these keys. structuredContent is
 * checked against it by clients; the full shape, nested keys and all, is the row's output schema
 * (contract/contract.json), which every answer is also checked against before it is sent.
 */
function wireOutputSchema(tool: ToolDef): Record<string, unknown> {
  const { required } = toToolJsonSchema(tool.output, "output");
  return Array.isArray(required) && required.length > 0 ? { type: "object", required } : { type: "object" };
}

/**
 * The arguments as a model reads them: the row's schema (io "input", so a defaulted argument is not
 * required of the caller) without the root `additionalProperties: false`. The row's schema still
 * refuses an unknown argument, by name, as invalid_argument; saying so on the wire costs 28 bytes a
 * tool in every conversation.
 */
function wireInputSchema(tool: ToolDef): Record<string, unknown> {
  const { additionalProperties: _refusedByTheServer, ...schema } = toToolJsonSchema(tool.input, "input");
  return schema;
}

function entryOf(tool: ToolDef, withOutput: boolean): ToolsListEntry {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: wireInputSchema(tool),
    ...(withOutput ? { outputSchema: wireOutputSchema(tool) } : {}),
    annotations: wireAnnotations(tool),
    requires_confirmation: tool.requiresConfirmation,
    _meta: { requires_confirmation: tool.requiresConfirmation },
  };
}

/** What tools/list advertises, in table order. A fresh copy on every call. */
export function toolsListEntries(opts: ToolsListOptions = {}): ToolsListEntry[] {
  const withOutput = opts.outputSchemas ?? true;
  return TOOLS.filter((t) => !opts.readOnly || isListedReadOnly(t)).map((t) => entryOf(t, withOutput));
}
