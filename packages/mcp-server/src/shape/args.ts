import type { Args } from "../context.js";
import { ToolError } from "../errors.js";

/**
 * Typed reads of already-validated arguments. A type surprise here means the contract schema and
 * this handler disagree: that is our bug, so it is internal_error rather than a caller's mistake.
 */
function drift(key: string): ToolError {
  return new ToolError("internal_error", "The server's argument handling disagrees with its own schema.", {
    argument: key,
  });
}

export function optStr(args: Args, key: string): string | undefined {
  const v = args[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") throw drift(key);
  return v;
}

export function reqStr(args: Args, key: string): string {
  const v = optStr(args, key);
  if (v === undefined) throw drift(key);
  return v;
}

export function optInt(args: Args, key: string): number | undefined {
  const v = args[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "number" || !Number.isInteger(v)) throw drift(key);
  return v;
}

export function reqInt(args: Args, key: string): number {
  const v = optInt(args, key);
  if (v === undefined) throw drift(key);
  return v;
}

export function optBool(args: Args, key: string): boolean | undefined {
  const v = args[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "boolean") throw drift(key);
  return v;
}

export function optStrList(args: Args, key: string): string[] | undefined {
  const v = args[key];
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || !v.every((x) => typeof x === "string")) throw drift(key);
  return v as string[];
}

export function optIntList(args: Args, key: string): number[] | undefined {
  const v = args[key];
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || !v.every((x) => typeof x === "number" && Number.isInteger(x))) throw drift(key);
  return v as number[];
}

export function optRecord(args: Args, key: string): Record<string, unknown> | undefined {
  const v = args[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "object" || Array.isArray(v)) throw drift(key);
  return v as Record<string, unknown>;
}

/** limit with the contract's default; the schema already bounds it. */
export function limitOf(args: Args, fallback = 25): number {
  return optInt(args, "limit") ?? fallback;
}

export function offsetOf(args: Args): number {
  return optInt(args, "offset") ?? 0;
}
