import type { z } from "zod";

/** Contract 1.0's 25 tool names, in the spec's order: 18 reads, then 7 writes. */
export const TOOL_NAMES_1_0 = [
  "health",
  "search_corpus",
  "find_similar",
  "list_sources",
  "list_routines",
  "get_routine",
  "list_executions",
  "get_execution",
  "get_execution_results",
  "get_search_record",
  "explain_match",
  "get_paper_lifecycle",
  "get_analytics",
  "get_watchdog_findings",
  "export_references",
  "list_watch_profiles",
  "get_watch_profile",
  "get_profile_matches",
  "run_sweep",
  "create_routine",
  "create_watch_profile",
  "run_routine",
  "activate_routine",
  "deactivate_routine",
  "update_settings",
] as const;

/** Contract 1.1's additions: the scan toolset (three writes, then the read). */
export const SCAN_TOOL_NAMES = ["scan_start", "scan_continue", "scan_verify", "scan_result"] as const;

/** Every tool name, in table order: 1.0's, then 1.1's. */
export const TOOL_NAMES = [...TOOL_NAMES_1_0, ...SCAN_TOOL_NAMES] as const;

/** Tools that answer from this server's own stored state and reach no resmon route. */
export type LocalToolName = "scan_result";

export type ToolName = (typeof TOOL_NAMES)[number];
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

export interface ToolDef<N extends ToolName = ToolName> {
  readonly name: N;
  readonly title: string;
  readonly description: string;
  readonly kind: ToolKind;
  /** true iff kind === "write"; resmon's own flag, advertised (not enforced) by the server. */
  readonly requiresConfirmation: boolean;
  readonly annotations: ToolAnnotations;
  /** z.strictObject: an unknown key is an error; `.parse` applies defaults. */
  readonly input: z.ZodObject;
  /** The success shape: z.looseObject, keys the spec makes conditional are optional. */
  readonly output: z.ZodObject;
  readonly routes: readonly RouteRef[];
}

/**
 * What a row must say, by kind. The literal types make a dishonest row a compile error:
 * a read cannot claim to write, a write cannot skip confirmation, nothing here deletes.
 */
interface RowBase<N extends ToolName, I extends z.ZodObject, O extends z.ZodObject> {
  readonly name: N;
  readonly title: string;
  readonly description: string;
  readonly input: I;
  readonly output: O;
  readonly routes: N extends LocalToolName ? readonly [] : readonly [RouteRef, ...RouteRef[]];
}

export interface ReadRow<N extends ToolName, I extends z.ZodObject, O extends z.ZodObject>
  extends RowBase<N, I, O> {
  readonly kind: "read";
  readonly requiresConfirmation: false;
  readonly annotations: {
    readonly readOnlyHint: true;
    readonly destructiveHint: false;
    readonly idempotentHint: true;
    readonly openWorldHint: boolean;
  };
}

export interface WriteRow<N extends ToolName, I extends z.ZodObject, O extends z.ZodObject>
  extends RowBase<N, I, O> {
  readonly kind: "write";
  readonly requiresConfirmation: true;
  readonly annotations: {
    readonly readOnlyHint: false;
    readonly destructiveHint: false;
    readonly idempotentHint: boolean;
    readonly openWorldHint: boolean;
  };
}

export type ToolRow<N extends ToolName, I extends z.ZodObject, O extends z.ZodObject> =
  | ReadRow<N, I, O>
  | WriteRow<N, I, O>;
