/**
 * stdin before the SDK's StdioServerTransport reads it: what its reader drops without a word is
 * answered instead (found by `pnpm reliability`): a line not JSON -32700, no JSON-RPC message -32600,
 * over 10 MiB -32600 (id null; the session goes on), a request whose `_meta` is malformed and a
 * tools/call whose text repeats a key -32602.
 * Every other line, CRLF or LF, passes on unchanged.
 */
import { Transform } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { type JSONRPCMessage, parseJSONRPCMessage, specTypeSchemas } from "@modelcontextprotocol/server";
import { isPlain } from "./json.js";
import { firstDuplicateKey } from "./json-duplicate-key.js";
import { paramsProblem } from "./request-params.js";
import { scrubJson } from "./scrub.js";

export const MAX_LINE = 10 * 1024 * 1024; // the SDK's own stdio buffer limit
const JSONRPC_REQUEST = specTypeSchemas.JSONRPCRequest["~standard"];

type Id = string | number;
const idOf = (v: unknown): Id | null =>
  isPlain(v) && (typeof v.id === "string" || Number.isSafeInteger(v.id)) ? (v.id as Id) : null;
const error = (id: Id | null, code: number, message: string, data?: unknown): JSONRPCMessage =>
  ({ jsonrpc: "2.0", id, error: data === undefined ? { code, message } : { code, message, data } }) as never;

/** The answer a line draws instead of being served (null: none), or undefined when it passes on. */
function refusalOf(line: string): JSONRPCMessage | null | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return error(null, -32700, "Parse error");
  }
  try {
    parseJSONRPCMessage(value);
  } catch {
    if (!isPlain(value)) return error(null, -32600, "Invalid Request");
    // A malformed response from the client has nothing to answer.
    if (!("method" in value) && ("result" in value || "error" in value)) return null;
    // A request at fault only in its params (its _meta, checked by the SDK's schema): -32602 naming the field.
    const checked = isPlain(value.params) ? (JSONRPC_REQUEST.validate(value) as { issues?: unknown[] }) : {};
    const problem = paramsProblem(String(value.method), checked.issues ?? []);
    return problem
      ? error(idOf(value), -32602, problem.message, problem.data)
      : error(idOf(value), -32600, "Invalid Request");
  }
  const repeated = isPlain(value) && value.method === "tools/call" ? firstDuplicateKey(line) : undefined;
  if (repeated === undefined) return undefined;
  const why = `the key ${repeated} appears twice, and readers disagree on which one counts, so the call was not run`;
  return error(idOf(value), -32602, `Invalid params: ${why}.`, { field: repeated });
}

/** stdin in, the lines to serve out; `answer` sends what a refused line draws (past 10 MiB, when its newline comes). */
export function stdinLines(answer: (message: JSONRPCMessage) => void): Transform {
  const decoder = new StringDecoder("utf8");
  // The line so far, as pieces (joined once its newline comes: no quadratic re-scan of a long line).
  let parts: string[] = [];
  let length = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const pieces = decoder.write(chunk).split("\n");
      for (const [i, piece] of pieces.entries()) {
        length += piece.length;
        if (length <= MAX_LINE) parts.push(piece);
        if (i === pieces.length - 1) break;
        if (length > MAX_LINE)
          answer(error(null, -32600, "Invalid Request: a line longer than 10 MiB was dropped"));
        else {
          const raw = parts.join("");
          const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
          const refusal = line.trim() === "" ? null : refusalOf(line);
          if (refusal === undefined) this.push(`${line}\n`);
          else if (refusal) answer(scrubJson(refusal));
        }
        parts = [];
        length = 0;
      }
      done();
    },
  });
}
