/** Small, total readers for backend JSON, which resmon does not describe in its OpenAPI. */

import { ToolError } from "../errors.js";

export type JsonRecord = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function asRecord(value: unknown): JsonRecord {
  return isRecord(value) ? value : {};
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function strOrNull(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

export function numOrNull(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/** resmon stores some columns as JSON text (routine parameters, progress events); parse or keep null. */
export function parseJsonText(value: unknown): unknown {
  if (typeof value !== "string") return value ?? null;
  try {
    return JSON.parse(value);
  } catch {
    return null;
  }
}

/** A list of strings from an array; a single non-blank string is one entry, kept as resmon sent it. */
export function stringList(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === "string");
  if (typeof value === "string" && value.trim()) return [value];
  return [];
}

/**
 * A list the answer must carry. Anything else is resmon's malformed answer: upstream_error, never
 * an empty list a caller would read as "nothing there".
 */
export function requireArray(value: unknown, what: string): unknown[] {
  if (Array.isArray(value)) return value;
  throw new ToolError(
    "upstream_error",
    `resmon's answer did not carry ${what} as a list, so this call reports nothing rather than an empty list.`,
    { expected: what },
  );
}

/** An object the answer must be; anything else is resmon's malformed answer (upstream_error). */
export function requireRecord(value: unknown, what: string): JsonRecord {
  if (isRecord(value)) return value;
  throw new ToolError(
    "upstream_error",
    `resmon's answer was not ${what} as a JSON object, so this call reports nothing rather than an empty answer.`,
    { expected: what },
  );
}
