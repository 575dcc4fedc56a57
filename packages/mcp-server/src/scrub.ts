/**
 * The second layer of token hygiene. The first is that no code path puts the token into an
 * answer or a log; this one replaces any token this process has read with a placeholder in
 * everything written to stdout and stderr, in case the first ever fails.
 */
import { processWide } from "./process-wide.js";

/** Every secret this process read: both bundles of the bin scrub with the same set (process-wide.ts). */
const secrets = processWide("secrets", () => new Set<string>());
const PLACEHOLDER = "<redacted>";
// An Authorization header value, whatever the token, is never something to print.
const BEARER = /Bearer\s+[A-Za-z0-9._~+/=-]{20,}/g;

/** Remember a secret this process has read (only values long enough to be a token). */
export function registerSecret(value: string): void {
  const trimmed = value.trim();
  if (trimmed.length >= 16) secrets.add(trimmed);
}

export function scrub(text: string): string {
  let out = text;
  for (const secret of secrets) {
    if (out.includes(secret)) out = out.split(secret).join(PLACEHOLDER);
  }
  // The regex only where it can match: on a 50 KB frame with non-Latin-1 text (a page of paper
  // titles) it costs ~30 µs, and `includes` finds no "Bearer" in a fraction of that.
  return out.includes("Bearer") ? out.replace(BEARER, `Bearer ${PLACEHOLDER}`) : out;
}

/** The compact JSON scrubDeep produced for a value it returned (the answer's text block reuses it). */
const jsonOfScrubbed = new WeakMap<object, string>();

/**
 * Scrub every string inside a JSON-shaped value, keys included. When nothing needed scrubbing (the
 * usual case) the value itself is returned rather than parsed back from its JSON: a handler's
 * answer is plain data, so it serializes to the same bytes either way, and a 100-paper page skips
 * a parse of its ~50 KB of JSON.
 */
export function scrubDeep<T>(value: T): T {
  const text = JSON.stringify(value);
  const clean = scrub(text);
  const out = (clean === text ? value : JSON.parse(clean)) as T;
  if (out !== null && typeof out === "object") jsonOfScrubbed.set(out, clean);
  return out;
}

/** JSON.stringify(value), from scrubDeep's work when it produced this value. */
export function jsonText(value: unknown): string {
  const known = value !== null && typeof value === "object" ? jsonOfScrubbed.get(value) : undefined;
  return known ?? JSON.stringify(value);
}
