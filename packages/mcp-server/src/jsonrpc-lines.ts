/**
 * Newline-delimited JSON-RPC in, one message at a time out: the framing half of the stdio
 * transport, kept free of the SDK so it can be tested alone. Each line is parsed once and checked
 * once. JSON-RPC 2.0 answers a line that is not JSON with -32700 and one that is not a valid message
 * with -32600 (the SDK's own stdio transport drops both without a word, leaving a client waiting).
 * A line over 10 MiB is dropped and answered -32600 (id null) instead of ending the session.
 */

type Json = Record<string, unknown>;

/** The SDK's own stdio buffer limit. */
export const MAX_LINE = 10 * 1024 * 1024;

export interface LineReaderOptions {
  /**
   * The full check of one parsed line: the message to deliver (possibly a normalized copy), or
   * undefined when it is not a valid JSON-RPC message. Only called when the fast check is unsure.
   */
  validate(value: unknown): unknown;
  /** A valid message. */
  deliver(message: unknown): void;
  /** An error frame this reader answers on its own (ends with a newline). */
  answer(frame: string): void;
}

export interface LineReader {
  /** Feed decoded text; complete lines are handled before this returns. */
  push(text: string): void;
}

export const isPlain = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
/** JSON.parse makes "__proto__" an own key; the schema's copy drops it, so such objects go to the schema. */
const isPlainCopyable = (v: unknown): v is Json => isPlain(v) && !Object.hasOwn(v, "__proto__");
/** A JSON-RPC id as the SDK's schema takes it: a string or a safe integer. */
export const isId = (v: unknown): v is string | number =>
  typeof v === "string" || (typeof v === "number" && Number.isSafeInteger(v));

/**
 * `_meta` as the SDK's schema takes it without a second look: a plain object whose progressToken,
 * if any, is a string or an integer, and that names no related task (whose shape the schema checks).
 */
function isPlainMeta(meta: unknown): boolean {
  if (!isPlainCopyable(meta) || "io.modelcontextprotocol/related-task" in meta) return false;
  return !("progressToken" in meta) || isId(meta.progressToken);
}

/**
 * The shape nearly every client message has: a request or notification with exactly the JSON-RPC
 * members, and params a plain object (its `_meta` plain too). Everything it accepts, the SDK's
 * JSONRPCMessageSchema accepts unchanged (a property test holds it to that); anything else goes to
 * the full check. Saves a schema parse per call.
 */
export function isPlainRequestOrNotification(value: unknown): boolean {
  if (!isPlain(value) || value.jsonrpc !== "2.0" || typeof value.method !== "string") return false;
  let keys = 2;
  if ("id" in value) {
    if (!isId(value.id)) return false;
    keys += 1;
  }
  if ("params" in value) {
    const params = value.params;
    if (
      params !== undefined &&
      (!isPlainCopyable(params) || ("_meta" in params && !isPlainMeta(params._meta)))
    )
      return false;
    keys += 1;
  }
  return Object.keys(value).length === keys;
}

export function errorFrame(id: string | number | null, code: number, message: string): string {
  return `${JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } })}\n`;
}

export function createLineReader(options: LineReaderOptions): LineReader {
  // The line so far, as pieces (joined once a newline arrives: no quadratic re-scan of a long line).
  let parts: string[] = [];
  let pendingLength = 0;
  let discarding = false;

  const handle = (raw: string) => {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      options.answer(errorFrame(null, -32700, "Parse error"));
      return;
    }
    if (isPlainRequestOrNotification(value)) {
      options.deliver(value);
      return;
    }
    const message = options.validate(value);
    if (message !== undefined) {
      options.deliver(message);
      return;
    }
    const record = isPlain(value) ? value : null;
    // A malformed response or error from the client has nothing to answer.
    if (record && !("method" in record) && ("result" in record || "error" in record)) return;
    const id = typeof record?.id === "string" || typeof record?.id === "number" ? record.id : null;
    options.answer(errorFrame(id, -32600, "Invalid Request"));
  };

  return {
    push(text) {
      let start = 0;
      let nl = text.indexOf("\n");
      while (nl >= 0) {
        const piece = text.slice(start, nl);
        if (discarding || pendingLength + piece.length > MAX_LINE) {
          options.answer(errorFrame(null, -32600, "Invalid Request: a line longer than 10 MiB was dropped"));
        } else {
          handle(parts.length > 0 ? parts.join("") + piece : piece);
        }
        parts = [];
        pendingLength = 0;
        discarding = false;
        start = nl + 1;
        nl = text.indexOf("\n", start);
      }
      const rest = start === 0 ? text : text.slice(start);
      if (!discarding && rest.length > 0) {
        parts.push(rest);
        pendingLength += rest.length;
        if (pendingLength > MAX_LINE) {
          discarding = true;
          parts = [];
          pendingLength = 0;
        }
      }
    },
  };
}
