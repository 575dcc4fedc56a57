/**
 * What the server offers the protocol layer (serve.ts serves it over the SDK): its identity,
 * the tools, prompts and resources. Plain types: nothing here knows the SDK.
 */
type Json = Record<string, unknown>;

/** A call's answer (with resource_link blocks after its text: a finished scan's evidence) or error envelope. */
export type Outcome = ({ ok: true; answer: Json; links?: Json[] } | { ok: false; error: object }) & {
  /** Gives back what the call holds for its answer (its large resmon answers): once its frame has left, or at once when none will be written. */
  release?: () => void;
};
/** A request the host refuses: answered -32602 with the contract's `{error, message, detail}` as data. */
export interface Refused {
  refused: { message: string; data: Json };
}
export type Answer = Json | Refused;
export type Progress = { progress: number; total?: number; message: string };

export interface ToolHost {
  info: { name: string; version: string; title?: string; description?: string };
  instructions: string;
  listTools(): readonly Record<string, unknown>[];
  /**
   * A call's answer or error envelope; `signal` aborts when the client cancels it
   * (notifications/cancelled). `progress` is given only when the request carried
   * `_meta.progressToken`: each call sends one `notifications/progress` (never after the call answers).
   */
  callTool(
    name: string,
    args: unknown,
    signal: AbortSignal,
    progress?: (note: Progress) => Promise<void>,
  ): Promise<Outcome>;
  prompts: {
    list(): Json[] | Promise<Json[]>;
    get(name: string, args?: Record<string, string>): Answer | Promise<Answer>;
  };
  resources: {
    list(cursor?: string): Promise<Answer>;
    templates(): Json[] | Promise<Json[]>;
    /** The read's answer and what gives back its room in the budget of large answers (once its frame has left). */
    read(uri: string, signal?: AbortSignal): Promise<{ answer: Answer; release: () => void }>;
  };
}

/** What the tool side answers (server.ts): everything but the opening and tools/list (session-host.ts). */
export type ToolSide = Pick<ToolHost, "callTool" | "prompts" | "resources"> & { close?(): Promise<void> };
