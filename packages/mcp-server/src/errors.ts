import { homedir } from "node:os";
import { type ErrorEnvelope, ToolError } from "@resmon/mcp-contract";
import { log } from "./log.js";
import { printable, scrub } from "./scrub.js";

/**
 * The one error funnel. Every refusal a handler, the backend adapter, the scan engine or the server
 * raises is the contract's ToolError (re-exported here for the server's modules); `toEnvelope` turns
 * it (or anything else) into the spec's `{error, message, detail}`.
 */
export { ToolError };

export function invalidArgument(message: string, detail: Record<string, unknown> = {}): ToolError {
  return new ToolError("invalid_argument", message, detail);
}

/** backend_unavailable carries `tried` and `no_port_named` at the top level and in `detail`. */
export function backendUnavailable(
  message: string,
  tried: string[],
  noPortNamed: boolean,
  detail: Record<string, unknown> = {},
): ToolError {
  return new ToolError(
    "backend_unavailable",
    message,
    { ...detail, tried, no_port_named: noPortNamed },
    { tried, noPortNamed },
  );
}

const INTERNAL_MESSAGE =
  "The resmon MCP server hit an unexpected problem handling this call. Nothing about it is known beyond that; try again, and report it if it repeats.";

/**
 * Anything into the envelope. An unexpected exception becomes internal_error with a fixed
 * sentence: its text or stack could carry a path, a header or a secret, so it goes to stderr
 * (scrubbed) and never into the answer.
 */
export function toEnvelope(err: unknown, toolName: string): ErrorEnvelope {
  if (err instanceof ToolError) {
    const envelope: ErrorEnvelope = { error: err.code, message: err.message, detail: err.detail };
    if (err.unavailable) {
      envelope.tried = err.unavailable.tried;
      envelope.no_port_named = err.unavailable.noPortNamed;
    }
    return homeAsTilde(envelope);
  }
  const kind = err instanceof Error ? err.name : typeof err;
  log(`internal error in ${toolName}: ${kind}${err instanceof Error ? `: ${err.message}` : ""}`);
  return { error: "internal_error", message: INTERNAL_MESSAGE, detail: {} };
}

/**
 * A refusal says a path in the user's home directory from `~` (issue 41): the port file or token
 * file discovery looked at stays a path the person can follow, and the model is not told the
 * account's name and home. Only at a path's boundary: `/home/al` is not a prefix of `/home/alice`.
 */
export function homeAsTilde<T>(value: T, home: string = homedir()): T {
  const root = home.replace(/[\\/]+$/, "");
  if (root.length < 2) return value;
  const at = new RegExp(`${root.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w.-])`, "g");
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return v.includes(root) ? v.replace(at, "~") : v;
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object") {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(v))
        Object.defineProperty(out, key, {
          value: walk(item),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      return out;
    }
    return v;
  };
  return walk(value) as T;
}

/** The most of any one string, and of any one list, an error answer carries. */
export const MAX_ECHO_CHARS = 2048;
export const MAX_ECHO_ITEMS = 100;

/**
 * Bound what an error echoes. Messages and details can repeat caller input (resmon's "Malformed
 * cursor: '<cursor>'", a tool name, key names), and a 200 kB argument must not come back whole.
 * A string it cuts is scrubbed first, so a cut can never leave part of a secret the scrubber of the
 * whole frame would have caught. Every string's control characters are written out (printable): a
 * message or detail may echo resmon's own text, and a harness may print it.
 */
export function boundEchoes<T>(value: T): T {
  if (typeof value === "string") {
    const text = printable(value);
    if (text.length <= MAX_ECHO_CHARS) return text as T;
    const clean = printable(scrub(value));
    if (clean.length <= MAX_ECHO_CHARS) return clean as T;
    const left = clean.length - MAX_ECHO_CHARS;
    return `${clean.slice(0, MAX_ECHO_CHARS)}… (${left} more characters not shown)` as T;
  }
  if (Array.isArray(value)) {
    const kept = value.slice(0, MAX_ECHO_ITEMS).map(boundEchoes);
    if (value.length > MAX_ECHO_ITEMS) kept.push(`… (${value.length - MAX_ECHO_ITEMS} more not shown)`);
    return kept as T;
  }
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      // defineProperty, so an own "__proto__" key stays a key rather than becoming the prototype.
      Object.defineProperty(out, boundEchoes(key), {
        value: boundEchoes(item),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out as T;
  }
  return value;
}
