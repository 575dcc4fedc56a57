import type { Backend } from "./backend.js";

export interface Reply {
  status: number;
  /** JSON body, or a string sent as-is with `contentType`. */
  body: unknown;
  contentType?: string;
  headers?: Record<string, string>;
  /** A body written as it is produced (resmon's event streams), in place of `body`; no Content-Length. */
  stream?: AsyncIterable<string>;
}

export type Query = Record<string, string | string[]>;

export interface Ctx {
  backend: Backend;
  params: Record<string, string>;
  query: Query;
  body: unknown;
}

export type Handler = (ctx: Ctx) => Reply;

/** A module's routes: `METHOD path` (resmon's own template) to its handler. */
export type Routes = Readonly<Record<string, Handler>>;

export function ok(body: unknown, status = 200): Reply {
  return { status, body };
}

/** FastAPI's HTTPException shape: `{"detail": ...}`. */
export function detail(status: number, message: unknown, headers?: Record<string, string>): Reply {
  return headers ? { status, body: { detail: message }, headers } : { status, body: { detail: message } };
}

/** A query parameter's value; the last one when it is repeated, as FastAPI reads a scalar. */
export function queryValue(query: Query, name: string): string | undefined {
  const v = query[name];
  return Array.isArray(v) ? v[v.length - 1] : v;
}

/** FastAPI's 422 for a path or query value that is not an int. */
export function intParam(
  raw: string | undefined,
  name: string,
  where: "path" | "query",
): number | Reply | undefined {
  if (raw === undefined) return undefined;
  if (!/^-?\d+$/.test(raw)) {
    return detail(422, [
      {
        type: "int_parsing",
        loc: [where, name],
        msg: "Input should be a valid integer, unable to parse string as an integer",
        input: raw,
      },
    ]);
  }
  return Number(raw);
}

export function isReply(x: unknown): x is Reply {
  return typeof x === "object" && x !== null && "status" in x && "body" in x;
}

export function boolParam(raw: string | undefined): boolean | undefined {
  if (raw === undefined) return undefined;
  return ["true", "1", "yes", "on"].includes(raw.toLowerCase());
}
