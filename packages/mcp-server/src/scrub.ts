/**
 * The second layer of token hygiene. The first is that no code path puts the token into an
 * answer or a log; this one replaces any token this process has read with a placeholder in
 * everything written to stdout and stderr, in case the first ever fails.
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
  return out.replace(BEARER, `Bearer ${PLACEHOLDER}`);
}

/** Scrub every string inside a JSON-shaped value, keys included. */
export function scrubDeep<T>(value: T): T {
  return JSON.parse(scrub(JSON.stringify(value))) as T;
}
