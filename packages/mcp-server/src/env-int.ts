/** An integer setting from the environment: a whole number at least `min`, else undefined (unset or not one). */
export function intFromEnv(raw: string | undefined, min: number): number | undefined {
  const text = raw?.trim();
  if (!text) return undefined;
  const n = Number(text);
  return Number.isSafeInteger(n) && n >= min ? n : undefined;
}
