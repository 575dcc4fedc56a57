/**
 * The second layer of token hygiene. The first is that no code path puts the token into an
 * answer or a log; this one replaces any token this process has read with a placeholder in
 * everything written to stdout and stderr, in case the first ever fails.
 */
/**
 * Every secret this process read. The bin's CommonJS front has its own copy of this module and
 * never reads the token; the SDK side, which reads it, scrubs every frame and log line it writes.
 */
const secrets = new Set<string>();
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

/** A JSON-shaped value with every string in it scrubbed (the value itself when nothing needed it). */
export function scrubJson<T>(value: T): T {
  const text = JSON.stringify(value);
  const clean = scrub(text);
  return clean === text ? value : (JSON.parse(clean) as T);
}
