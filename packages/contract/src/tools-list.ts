import { toToolJsonSchema } from "./json-schema.js";
import { CRITERION_ID, YEAR_MONTH } from "./scan-parts.js";
import { ISO_DATE, UUID4_PATTERN } from "./schema-parts.js";
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
 * required of the caller) with what the server checks anyway left off the wire, where saying it
 * costs every conversation tokens and tells a model nothing it needs (the row's schema, in the
 * contract document, still states it, and refuses a bad value as invalid_argument naming the field
 * before any request):
 * - `additionalProperties: false`, at the root and in nested objects: an unknown key is refused by name;
 * - a `pattern` the argument's description says in words (WORDED_PATTERNS): the UUIDv4 (53
 *   tokens, six times; "Lowercase UUIDv4", or where to copy the id from), a date ("YYYY-MM-DD"), a
 *   month ("YYYY-MM"), a criterion id ("C1…C6", and the plan's own ids);
 * - a lower bound nobody means to cross (minLength 1, minItems 1, minimum 0 or 1): an empty query,
 *   an id of 0, a negative offset; the refusal names the field.
 */
function wireInputSchema(tool: ToolDef): Record<string, unknown> {
  return withoutServerChecks(toToolJsonSchema(tool.input, "input")) as Record<string, unknown>;
}

/** Patterns checked by the server and said in words on the wire, not as the pattern. */
export const WORDED_PATTERNS: ReadonlySet<string> = new Set(
  [UUID4_PATTERN, ISO_DATE, YEAR_MONTH, CRITERION_ID].map((p) => p.source),
);

export function withoutServerChecks(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutServerChecks);
  if (node === null || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "additionalProperties" && value === false) continue;
    if (key === "pattern" && WORDED_PATTERNS.has(String(value))) continue;
    if ((key === "minLength" || key === "minItems") && value === 1) continue;
    if (key === "minimum" && (value === 0 || value === 1)) continue;
    out[key] = withoutServerChecks(value);
  }
  return out;
}

/**
 * An argument a tool earlier in the same list already spells out in full (scan_verify's
 * ranked_entries is scan_continue's), named by reference instead: MCP gives each tool's schema on
 * its own, with no `$ref` between tools, so the words point to it. Only a large part is worth it;
 * the server checks the argument in full either way.
 */
const SAME_AS_MIN_BYTES = 75;

function statedOnce(entries: ToolsListEntry[]): ToolsListEntry[] {
  const seen = new Map<string, string>();
  return entries.map((entry) => {
    const properties = entry.inputSchema.properties as Record<string, Record<string, unknown>> | undefined;
    if (!properties) return entry;
    const out: Record<string, Record<string, unknown>> = {};
    for (const [name, schema] of Object.entries(properties)) {
      const text = JSON.stringify(schema);
      const first = seen.get(text);
      if (first !== undefined && first !== entry.name) {
        const { type } = schema;
        out[name] = { type, description: `As in ${first}.` };
        continue;
      }
      out[name] = schema;
      if (text.length >= SAME_AS_MIN_BYTES && first === undefined) seen.set(text, entry.name);
    }
    return { ...entry, inputSchema: { ...entry.inputSchema, properties: out } };
  });
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
  return statedOnce(
    TOOLS.filter((t) => !opts.readOnly || isListedReadOnly(t)).map((t) => entryOf(t, withOutput)),
  );
}
