import type { z } from "zod";

export type ToolKind = "read" | "write";
export type HttpMethod = "GET" | "POST" | "PUT";

/** One method + path the tool reaches, with resmon's own path template. */
export interface RouteRef {
  readonly method: HttpMethod;
  readonly path: string;
}

export interface ToolAnnotations {
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly idempotentHint: boolean;
  readonly openWorldHint: boolean;
}

/**
 * Arguments this tool refuses by name before its schema sees them, each with the sentence that says
 * why (search_corpus: `offset`). A rule of one row lives in that row, not in the generic pipeline.
 */
export type RefusedArguments = Readonly<Record<string, string>>;

/** What every row states besides its schemas, whatever its kind. */
interface RowFacts<N extends string, I extends z.ZodObject> {
  readonly name: N;
  readonly title: string;
  readonly description: string;
  /** Every route the tool reaches; empty only on a row that says `localState`. */
  readonly routes: readonly RouteRef[];
  /** Why the tool reaches no resmon route (scan_result: it answers from this server's stored state). */
  readonly localState?: string;
  /**
   * One valid call on the demo data (@resmon/testkit's `demo` seed), only required arguments where
   * possible so the defaults apply: the end-to-end tests, the bench and the docs call it.
   */
  readonly example: z.input<I>;
  /**
   * Set when the example only answers its success shape after other calls (a scan tool's example
   * names a scan that scan_start must have started): generic callers of every example skip it, and
   * the row's own end-to-end test runs the sequence.
   */
  readonly exampleNeeds?: string;
  /** Tokens (cl100k_base) the answer to `example` may take on the demo data: about 20-25% over measured. */
  readonly budget: number;
  readonly refuses?: RefusedArguments;
}

/** A row's schemas as the table holds them. */
interface RowSchemas<I extends z.ZodObject, O extends z.ZodObject> {
  /** z.strictObject: an unknown key is an error; `.parse` applies defaults. */
  readonly input: I;
  /** The success shape: z.looseObject, keys the spec makes conditional are optional. */
  readonly output: O;
}

/**
 * What a row's author writes, whatever its kind: its schemas as functions that build them, which
 * readTool/writeTool call on first use, so a process that calls one tool builds that tool's
 * schemas only (the server's first call does not wait on all 29 rows' zod objects).
 */
export interface RowSpec<N extends string, I extends z.ZodObject, O extends z.ZodObject>
  extends RowFacts<N, I> {
  readonly input: () => I;
  readonly output: () => O;
}

/**
 * A row as the table holds it. The literal types make a dishonest row a compile error: a read
 * cannot claim to write, a write cannot skip confirmation, nothing here deletes. Rows get these
 * from readTool/writeTool, never write them out.
 */
export interface ReadRow<N extends string, I extends z.ZodObject, O extends z.ZodObject>
  extends RowFacts<N, I>,
    RowSchemas<I, O> {
  readonly kind: "read";
  readonly requiresConfirmation: false;
  readonly annotations: {
    readonly readOnlyHint: true;
    readonly destructiveHint: false;
    readonly idempotentHint: true;
    readonly openWorldHint: boolean;
  };
}

export interface WriteRow<N extends string, I extends z.ZodObject, O extends z.ZodObject>
  extends RowFacts<N, I>,
    RowSchemas<I, O> {
  readonly kind: "write";
  /** resmon's own flag, advertised (not enforced) by the server. */
  readonly requiresConfirmation: true;
  readonly annotations: {
    readonly readOnlyHint: false;
    readonly destructiveHint: false;
    readonly idempotentHint: boolean;
    readonly openWorldHint: boolean;
  };
}

export type ToolRow<N extends string, I extends z.ZodObject, O extends z.ZodObject> =
  | ReadRow<N, I, O>
  | WriteRow<N, I, O>;

/** Any row, its schemas' precise types erased. */
export type ToolDef<N extends string = string> = ToolRow<N, z.ZodObject, z.ZodObject>;
