import type { ToolArgs, ToolName, ToolResult } from "@resmon/mcp-contract";
import type { ScanEngine } from "@resmon/scan";
import type { CallBackend } from "./backend/adapter.js";
import type { ProgressReport } from "./progress.js";

/** A success answer: the tool's documented shape (checked against its output schema before it is sent). */
export type Answer = Record<string, unknown>;

export interface Ctx {
  /** resmon, under this tool call's one deadline. */
  readonly backend: CallBackend;
  /** The server process's one scan engine, made on first use. */
  readonly scan: () => Promise<ScanEngine>;
  /** Report how far the call has come (progress.ts); absent when the client asked for no progress. */
  readonly progress?: (report: ProgressReport) => void;
}

/**
 * A tool's handler receives its arguments as the contract's schema parsed them (defaults applied)
 * and answers its tool's success shape, typed from the row's output schema.
 */
export type Handler<N extends ToolName> = (args: ToolArgs<N>, ctx: Ctx) => Promise<ToolResult<N>>;

/** One handler per tool; a missing or mistyped entry is a compile error. */
export type HandlerRegistry = { readonly [N in ToolName]: Handler<N> };
