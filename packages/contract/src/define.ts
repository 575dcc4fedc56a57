import type { z } from "zod";
import { describeNeeds } from "./resmon-versions.js";
import type { ReadRow, RowSpec, WriteRow } from "./types.js";

type Schemas<I extends z.ZodObject, O extends z.ZodObject> = { readonly input: I; readonly output: O };

/**
 * The row's facts, and its schemas as properties built on first read and then kept: a row reads
 * like any object, and a server whose first call is health builds health's schemas only.
 */
function withSchemas<I extends z.ZodObject, O extends z.ZodObject, R extends object>(
  facts: R,
  input: () => I,
  output: () => O,
): R & Schemas<I, O> {
  const built: { input?: I; output?: O } = {};
  return Object.defineProperties(facts, {
    input: { enumerable: true, get: () => (built.input ??= input()) },
    output: { enumerable: true, get: () => (built.output ??= output()) },
  }) as R & Schemas<I, O>;
}

/**
 * A read: never writes, never deletes, the same answer when asked twice. Only whether it can
 * leave the machine varies (default: it cannot).
 */
export function readTool<N extends string, I extends z.ZodObject, O extends z.ZodObject>(
  spec: RowSpec<N, I, O> & { readonly openWorld?: boolean },
): ReadRow<N, I, O> {
  const { openWorld = false, input, output, ...row } = spec;
  const facts = {
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
  } as const;
  return withSchemas(facts, input, output);
}

/**
 * A write: asks confirmation, and nothing here deletes or overwrites what the user cannot get back.
 * Whether a second call repeats the first (idempotent) and whether it reaches outside the machine
 * (openWorld) are the row's to say, every time.
 */
export function writeTool<N extends string, I extends z.ZodObject, O extends z.ZodObject>(
  spec: RowSpec<N, I, O> & { readonly idempotent: boolean; readonly openWorld: boolean },
): WriteRow<N, I, O> {
  const { idempotent, openWorld, input, output, ...row } = spec;
  const facts = {
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
  } as const;
  return withSchemas(facts, input, output);
}
