/**
 * Newline-delimited JSON-RPC in, one parsed message at a time out: the framing half of the stdio
 * seam, free of the SDK. Each line is parsed once. JSON-RPC 2.0 answers a line that is not JSON with
 * -32700 (the SDK's own stdio transport drops it without a word, leaving a client waiting). A line
 * over 10 MiB is dropped and answered -32600 (id null) instead of ending the session. A tools/call
 * whose text repeats a key is refused -32602 (see firstDuplicateKey).
 */

type Json = Record<string, unknown>;
type Id = string | number;

/** The SDK's own stdio buffer limit. */
export const MAX_LINE = 10 * 1024 * 1024;

export interface ErrorAnswer {
  jsonrpc: "2.0";
  id: Id | null;
  error: { code: number; message: string; data?: unknown };
}

export interface LineReaderOptions {
  /**
   * One parsed line. `plain` says the fast check (isPlainRequestOrNotification) took it, so the SDK's
   * schema would take it unchanged; anything else still needs that full check.
   */
  deliver(value: unknown, plain: boolean): void;
  /** An error this reader answers on its own. */
  answer(error: ErrorAnswer): void;
}

export interface LineReader {
  /** Feed decoded text; complete lines are handled before this returns. */
  push(text: string): void;
}

export const isPlain = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
/** Every key of `v` is one of `allowed`. */
export const onlyKeys = (v: Json, allowed: readonly string[]): boolean =>
  Object.keys(v).every((k) => allowed.includes(k));
/** JSON.parse makes "__proto__" an own key; the schema's copy drops it, so such objects go to the schema. */
const isPlainCopyable = (v: unknown): v is Json => isPlain(v) && !Object.hasOwn(v, "__proto__");
/** A JSON-RPC id as the SDK's schema takes it: a string or a safe integer. */
export const isId = (v: unknown): v is Id =>
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
 * JSON-RPC message schema accepts unchanged (a property test holds it to that); anything else goes
 * to the full check. Saves a schema parse per call.
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

export function errorAnswer(id: Id | null, code: number, message: string, data?: unknown): ErrorAnswer {
  return { jsonrpc: "2.0", id, error: data === undefined ? { code, message } : { code, message, data } };
}

/** The answer to a parsed line that is not a valid message; undefined for a malformed response. */
export function invalidMessageAnswer(value: unknown): ErrorAnswer | undefined {
  const record = isPlain(value) ? value : null;
  // A malformed response or error from the client has nothing to answer.
  if (record && !("method" in record) && ("result" in record || "error" in record)) return undefined;
  const id = typeof record?.id === "string" || typeof record?.id === "number" ? record.id : null;
  return errorAnswer(id, -32600, "Invalid Request");
}

interface Container {
  keys?: Set<string>;
  path: string;
  /** Objects: the key whose value comes next; arrays: the index. */
  at: string | number;
  expectKey: boolean;
}

/**
 * The path of the first key an object in this JSON text repeats ("params.name"), or undefined.
 * JSON.parse keeps the last of two equal keys without a word, while other readers (a proxy, a log,
 * a person) may read the first: a call must mean one thing. The text has parsed, so it is valid JSON.
 */
export function firstDuplicateKey(text: string): string | undefined {
  const stack: Container[] = [];
  const childPath = () => {
    const top = stack.at(-1);
    return top ? `${top.path}${String(top.at)}.` : "";
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      let end = text.indexOf('"', i + 1);
      while (end > 0) {
        let slashes = 0;
        while (text.charCodeAt(end - 1 - slashes) === 0x5c /* \ */) slashes++;
        if (slashes % 2 === 0) break;
        end = text.indexOf('"', end + 1);
      }
      const top = stack.at(-1);
      if (top?.keys && top.expectKey) {
        const raw = text.slice(i, end + 1);
        const key = raw.includes("\\") ? (JSON.parse(raw) as string) : raw.slice(1, -1);
        if (top.keys.has(key)) return `${top.path}${key}`;
        top.keys.add(key);
        top.at = key;
        top.expectKey = false;
      }
      i = end;
    } else if (c === 0x7b /* { */) {
      stack.push({ keys: new Set(), path: childPath(), at: "", expectKey: true });
    } else if (c === 0x5b /* [ */) {
      stack.push({ path: childPath(), at: 0, expectKey: false });
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
    } else if (c === 0x2c /* , */) {
      const top = stack.at(-1);
      if (top?.keys) top.expectKey = true;
      else if (top) top.at = (top.at as number) + 1;
    }
  }
  return undefined;
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
      options.answer(errorAnswer(null, -32700, "Parse error"));
      return;
    }
    if (isPlain(value) && value.method === "tools/call") {
      const repeated = firstDuplicateKey(line);
      if (repeated !== undefined) {
        const id = isId(value.id) ? value.id : null;
        options.answer(
          errorAnswer(
            id,
            -32602,
            `Invalid params: the key ${repeated} appears twice, and readers disagree on which one counts, so the call was not run.`,
            { field: repeated },
          ),
        );
        return;
      }
    }
    options.deliver(value, isPlainRequestOrNotification(value));
  };

  return {
    push(text) {
      let start = 0;
      let nl = text.indexOf("\n");
      while (nl >= 0) {
        const piece = text.slice(start, nl);
        if (discarding || pendingLength + piece.length > MAX_LINE) {
          options.answer(errorAnswer(null, -32600, "Invalid Request: a line longer than 10 MiB was dropped"));
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
