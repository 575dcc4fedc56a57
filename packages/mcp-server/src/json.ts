/** Guards for parsed JSON values (no schema library). */
export type Json = Record<string, unknown>;

export const isPlain = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
/** Every key of `v` is one of `allowed`. */
export const onlyKeys = (v: Json, allowed: readonly string[]): boolean =>
  Object.keys(v).every((k) => allowed.includes(k));
