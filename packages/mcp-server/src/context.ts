import type { ToolName } from "@resmon/mcp-contract";
import type { Backend } from "./backend.js";

/** Arguments after the contract's zod schema has validated them and applied defaults. */
export type Args = Readonly<Record<string, unknown>>;
/** A success answer: the tool's documented shape. */
export type Answer = Record<string, unknown>;

export interface Ctx {
  readonly backend: Backend;
}

export type Handler = (args: Args, ctx: Ctx) => Promise<Answer>;

/** One handler per tool; a missing entry is a compile error. */
export type HandlerRegistry = { readonly [N in ToolName]: Handler };
