import type { HandlerRegistry } from "../context.js";
import { MODULES } from "../generated/handlers.js";

/** Keyed by the table's ToolName: a row without its handler file (handlers/<name>.ts) does not compile. */
export const HANDLERS: HandlerRegistry = MODULES;
