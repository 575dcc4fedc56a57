/**
 * Newline-delimited JSON-RPC in, each line parsed once, free of the SDK. Unlike the SDK's own stdio
 * transport, which drops such lines without a word, a line that is not JSON is answered -32700, one
 * over 10 MiB -32600 (id null), and a tools/call whose text repeats a key -32602.
 */
import { isPlain } from "../json.js";
import { firstDuplicateKey } from "../json-duplicate-key.js";

export type Id = string | number;

/** The SDK's own stdio buffer limit. */
const MAX_LINE = 10 * 1024 * 1024;

export type ErrorAnswer = {
  jsonrpc: "2.0";
  id: Id | null;
  error: { code: number; message: string; data?: unknown };
};

/** A JSON-RPC id as the SDK's schema takes it: a string or a safe integer. */
export const isId = (v: unknown): v is Id =>
  typeof v === "string" || (typeof v === "number" && Number.isSafeInteger(v));

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

/** Feed decoded text to `push`; each complete line is parsed and handled before it returns. */
export function createLineReader(options: {
  /** One parsed line (the SDK's schema checks it: sdk.ts), and its length. */
  deliver(value: unknown, chars: number): void;
  /** An error this reader answers on its own. */
  answer(error: ErrorAnswer): void;
}): { push(text: string): void } {
  // The line so far, as pieces (joined once a newline arrives: no quadratic re-scan of a long line).
  let parts: string[] = [];
  let pending = 0;

  const handle = (raw: string) => {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return options.answer(errorAnswer(null, -32700, "Parse error"));
    }
    const repeated = isPlain(value) && value.method === "tools/call" ? firstDuplicateKey(line) : undefined;
    if (repeated === undefined) return options.deliver(value, line.length);
    const why = `the key ${repeated} appears twice, and readers disagree on which one counts, so the call was not run`;
    const id = isPlain(value) && isId(value.id) ? value.id : null;
    options.answer(errorAnswer(id, -32602, `Invalid params: ${why}.`, { field: repeated }));
  };

  return {
    push(text) {
      let start = 0;
      for (let nl = text.indexOf("\n"); nl >= 0; nl = text.indexOf("\n", start)) {
        const piece = text.slice(start, nl);
        start = nl + 1;
        if (pending + piece.length > MAX_LINE)
          options.answer(errorAnswer(null, -32600, "Invalid Request: a line longer than 10 MiB was dropped"));
        else handle(parts.join("") + piece);
        parts = [];
        pending = 0;
      }
      const rest = text.slice(start);
      pending += rest.length;
      // Past the limit the pieces are let go; the line is answered -32600 when its newline comes.
      if (pending > MAX_LINE) parts = [];
      else if (rest.length > 0) parts.push(rest);
    },
  };
}
