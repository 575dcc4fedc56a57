import { toToolJsonSchema } from "./json-schema.js";
import { TOOLS } from "./table.js";
import type { ToolAnnotations, ToolDef } from "./types.js";

/** One entry of tools/list, as this server advertises it. */
export interface ToolsListEntry {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations: { title: string } & ToolAnnotations;
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

function entryOf(tool: ToolDef, withOutput: boolean): ToolsListEntry {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    // io "input": a defaulted argument is not required of the caller.
    inputSchema: toToolJsonSchema(tool.input, "input"),
    ...(withOutput ? { outputSchema: toToolJsonSchema(tool.output, "output") } : {}),
    annotations: { title: tool.title, ...tool.annotations },
    requires_confirmation: tool.requiresConfirmation,
    _meta: { requires_confirmation: tool.requiresConfirmation },
  };
}

/** What tools/list advertises, in the spec's order. A fresh copy on every call. */
export function toolsListEntries(opts: ToolsListOptions = {}): ToolsListEntry[] {
  const withOutput = opts.outputSchemas ?? true;
  return TOOLS.filter((t) => !opts.readOnly || !t.requiresConfirmation).map((t) => entryOf(t, withOutput));
}
