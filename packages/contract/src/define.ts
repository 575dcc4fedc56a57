import type { z } from "zod";
import type { ReadRow, ToolName, WriteRow } from "./types.js";

/** Identity helpers: they keep each row's exact schema types while checking it against its kind. */
export const readTool = <N extends ToolName, I extends z.ZodObject, O extends z.ZodObject>(
  row: ReadRow<N, I, O>,
): ReadRow<N, I, O> => row;

export const writeTool = <N extends ToolName, I extends z.ZodObject, O extends z.ZodObject>(
  row: WriteRow<N, I, O>,
): WriteRow<N, I, O> => row;

/** The hints every read shares; only whether it leaves the machine varies. */
export const readHints = (openWorldHint: boolean) =>
  ({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint }) as const;

/** Writes: nothing here deletes or overwrites state the user cannot get back. */
export const writeHints = (idempotentHint: boolean, openWorldHint: boolean) =>
  ({ readOnlyHint: false, destructiveHint: false, idempotentHint, openWorldHint }) as const;
