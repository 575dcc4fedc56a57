/**
 * What an answer promises but resmon did not say is named in the answer's `not_reported` list,
 * never filled in: a value resmon did not send is unknown, not null, zero or empty.
 */
export function markNotReported(answer: Record<string, unknown>, keys: readonly string[]): void {
  if (keys.length === 0) return;
  const already = Array.isArray(answer.not_reported) ? (answer.not_reported as string[]) : [];
  answer.not_reported = [...already, ...keys.filter((k) => !already.includes(k))];
}

/** Copy each key resmon sent onto the answer; the ones it did not send are marked not reported. */
export function passReported(
  answer: Record<string, unknown>,
  body: Record<string, unknown>,
  keys: readonly string[],
): void {
  const missing: string[] = [];
  for (const key of keys) {
    if (Object.hasOwn(body, key)) answer[key] = body[key];
    else missing.push(key);
  }
  markNotReported(answer, missing);
}
