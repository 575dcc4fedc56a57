/**
 * The tools/call fast path of a 2025-era session: once the SDK has answered `initialize` with a
 * 2025-era revision, a tools/call of the plain shape every harness sends is answered here, by the
 * same tool host the SDK's handler calls, with the frame the SDK would write (`{result, jsonrpc,
 * id}`; the 2025 codec passes a tools/call result through unchanged). It skips the SDK's per-message
 * work (its zod type guards on every message in and out, the request validated twice and the result
 * once), which the bench measured at about a quarter of a health call's overhead over stdio (issue 12;
 * tools/bench/RESULTS.md). Anything else — the 2026-07-28 era, params beyond name, arguments and
 * `_meta`, a `_meta` key the SDK reads, an id already in flight — goes to the SDK. A property test holds
 * every answer here byte-equal to the SDK's (test/fast-call.test.ts, in CI, nothing skipped).
 * RESMON_MCP_FAST_PATH=0 turns it off.
 */
import { isId, isPlain, onlyKeys } from "./lines.js";

type Json = Record<string, unknown>;
type Id = string | number;

export interface CallOutcome {
  text: string;
  structured?: Record<string, unknown>;
  isError: boolean;
}

/** The tools/call result for an outcome: what the SDK's handler returns, and what the fast path sends. */
export function callResult(outcome: CallOutcome): {
  content: { type: "text"; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
} {
  const result: ReturnType<typeof callResult> = { content: [{ type: "text", text: outcome.text }] };
  if (outcome.structured) result.structuredContent = outcome.structured;
  if (outcome.isError) result.isError = true;
  return result;
}

/** RESMON_MCP_FAST_PATH: on unless it is "0". */
export function fastPathFrom(env: Record<string, string | undefined>): boolean {
  return env.RESMON_MCP_FAST_PATH !== "0";
}

/** `_meta` keys the SDK reads itself (MCP reserves the prefix). */
const RESERVED_META = "io.modelcontextprotocol/";

/**
 * A tools/call the SDK's 2025 path would hand to the tool host unchanged: params of name (a string),
 * arguments (a plain object the SDK's record schema copies as it is: no own `__proto__`) and a plain
 * `_meta` whose progress token, if any, is a JSON-RPC id (this server sends no progress) and that
 * holds no `io.modelcontextprotocol/` key (the SDK lifts or checks those: the 2026-07-28 envelope, a
 * related task). A harness's own keys (a tool-use id, say) reach no handler either way.
 */
export function isPlainToolCall(
  message: Json,
): message is Json & { id: Id; params: Json & { name: string } } {
  if (message.method !== "tools/call" || !isId(message.id) || !isPlain(message.params)) return false;
  const params = message.params;
  if (!onlyKeys(params, ["name", "arguments", "_meta"]) || typeof params.name !== "string") return false;
  const args = params.arguments;
  if (args !== undefined && (!isPlain(args) || Object.hasOwn(args, "__proto__"))) return false;
  const meta = params._meta;
  if (meta === undefined) return true;
  if (!isPlain(meta) || Object.keys(meta).some((k) => k.startsWith(RESERVED_META))) return false;
  return !("progressToken" in meta) || isId(meta.progressToken);
}

export interface FastCallsOptions {
  legacyVersions: readonly string[];
  call(name: string, args: unknown, id: Id): Promise<CallOutcome>;
  /** Writes one answer frame (the session's send). */
  send(message: Json): Promise<void>;
  /** Whether the session is still open: answers after its close are dropped, as the SDK drops them. */
  isOpen(): boolean;
  /** An answer that could not be written (the SDK reports "Failed to send response" the same way). */
  onError?(error: Error): void;
}

export interface FastCalls {
  /** Every inbound message, first. True when this took it (the SDK must not see it). */
  take(message: Json): boolean;
  /** Every outbound message the SDK writes: its answer to `initialize` opens the fast path. */
  sent(message: Json): void;
}

export function createFastCalls(options: FastCallsOptions): FastCalls {
  const initializeIds = new Set<Id>();
  /** Calls answered here and not yet written; `cancelled` once the client cancelled them. */
  const inFlight = new Map<Id, { cancelled: boolean }>();
  let legacy = false;

  const answer = async (id: Id, name: string, args: unknown) => {
    const state = { cancelled: false };
    inFlight.set(id, state);
    let frame: Json;
    try {
      frame = { result: callResult(await options.call(name, args, id)), jsonrpc: "2.0", id };
    } catch (error) {
      // The SDK's answer to a handler that throws (Protocol._onrequest); the tool host never throws.
      const e = error as { code?: unknown; message?: string; data?: unknown };
      const code = Number.isSafeInteger(e?.code) ? (e.code as number) : -32603;
      frame = {
        jsonrpc: "2.0",
        id,
        error: {
          code,
          message: e?.message ?? "Internal error",
          ...(e?.data !== undefined && { data: e.data }),
        },
      };
    } finally {
      inFlight.delete(id);
    }
    // The SDK writes nothing for a request the client cancelled (MCP: cancellation, "SHOULD NOT send").
    if (!state.cancelled && options.isOpen()) await options.send(frame);
  };

  return {
    take(message) {
      if (message.method === "initialize" && isId(message.id)) initializeIds.add(message.id);
      if (message.method === "notifications/cancelled" && isPlain(message.params)) {
        const cancelled = inFlight.get(message.params.requestId as Id);
        if (cancelled) cancelled.cancelled = true;
        return false; // the SDK still sees it (it knows no such request and ignores it)
      }
      if (!legacy || !isPlainToolCall(message) || inFlight.has(message.id)) return false;
      const { id, params } = message;
      answer(id, params.name, params.arguments).catch((error: unknown) =>
        options.onError?.(new Error(`Failed to send response: ${String(error)}`)),
      );
      return true;
    },
    sent(message) {
      if (legacy || !isId(message.id) || !initializeIds.delete(message.id)) return;
      const version = isPlain(message.result) ? message.result.protocolVersion : undefined;
      legacy = typeof version === "string" && options.legacyVersions.includes(version);
    },
  };
}
