import type { z } from "zod";
import { describeNeeds } from "./resmon-versions.js";
import type { ReadRow, RowSpec, WriteRow } from "./types.js";

/**
 * A read: never writes, never deletes, the same answer when asked twice. Only whether it can
 * leave the machine varies (default: it cannot).
 */
export function readTool<N extends string, I extends z.ZodObject, O extends z.ZodObject>(
  spec: RowSpec<N, I, O> & { readonly openWorld?: boolean },
): ReadRow<N, I, O> {
  const { openWorld = false, ...row } = spec;
  return {
    ...row,
    description: describeNeeds(row),
    kind: "read",
    requiresConfirmation: false,
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: openWorld,
    },
  };
}

/**
 * A write: asks confirmation, and nothing here deletes or overwrites what the user cannot get back.
 * Whether a second call repeats the first (idempotent) and whether it reaches outside the machine
 * (openWorld) are the row's to say, every time.
 */
export function writeTool<N extends string, I extends z.ZodObject, O extends z.ZodObject>(
  spec: RowSpec<N, I, O> & { readonly idempotent: boolean; readonly openWorld: boolean },
): WriteRow<N, I, O> {
  const { idempotent, openWorld, ...row } = spec;
  return {
    ...row,
    description: describeNeeds(row),
    kind: "write",
    requiresConfirmation: true,
    annotations: {
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: idempotent,
      openWorldHint: openWorld,
    },
  };
}
