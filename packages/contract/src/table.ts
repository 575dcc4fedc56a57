import type { z } from "zod";
import { MODULES } from "./generated/rows.js";
import type { ToolDef, ToolRow } from "./types.js";

/**
 * The table: one row per file of src/tools, indexed by the build (generated/rows.ts). Nothing else
 * lists the tools; every name, count and per-tool fact below is derived from it.
 */
type Rows = typeof MODULES;

/** A tool's name: a key of the table. */
export type ToolName = keyof Rows & string;

/** Each row is filed under its own name, and its helper gave it kind, confirmation and annotations. */
const ROWS: { readonly [N in ToolName]: ToolRow<N, z.ZodObject, z.ZodObject> } = MODULES;

/** A tool's arguments after parsing (defaults applied), typed from its own schema. */
export type ToolArgs<N extends ToolName> = z.output<Rows[N]["input"]>;
/** A tool's success shape, typed from its own schema. */
export type ToolResult<N extends ToolName> = z.output<Rows[N]["output"]>;

export const TOOL_BY_NAME: { readonly [N in ToolName]: ToolDef<N> } = ROWS;

const ALL: readonly ToolDef<ToolName>[] = Object.values(ROWS);

/** Every tool, reads first then writes, each group in table order (the spec's order). */
export const TOOLS: readonly ToolDef<ToolName>[] = [
  ...ALL.filter((t) => t.kind === "read"),
  ...ALL.filter((t) => t.kind === "write"),
];

export const TOOL_NAMES: readonly ToolName[] = TOOLS.map((t) => t.name);
export const READ_TOOLS: readonly ToolName[] = TOOLS.filter((t) => t.kind === "read").map((t) => t.name);
export const WRITE_TOOLS: readonly ToolName[] = TOOLS.filter((t) => t.kind === "write").map((t) => t.name);

export function isToolName(x: string): x is ToolName {
  return Object.hasOwn(ROWS, x);
}

/**
 * The embedded assistant's pre-approved list (Claude Code's `mcp__<server>__<tool>` form), built from
 * READ_TOOLS only, so what the model may call without asking cannot drift from what the contract calls safe.
 */
export function preApprovedTools(serverName = "resmon"): string[] {
  return READ_TOOLS.map((name) => `mcp__${serverName}__${name}`);
}
