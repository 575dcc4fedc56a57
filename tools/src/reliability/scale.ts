/**
 * How many cases a run generates. `pnpm test` runs the fast subset (the default scale, 0.03);
 * `pnpm reliability` sets RESMON_RELIABILITY_SCALE=1. RESMON_RELIABILITY_SEED is fast-check's seed,
 * printed by a failing property so the case can be replayed.
 */
function numberFrom(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name}=${raw} is not a positive number`);
  return value;
}

const FAST_SCALE = 0.03;
export const DEFAULT_SEED = 20260601;

export const SCALE = numberFrom("RESMON_RELIABILITY_SCALE", FAST_SCALE);
export const SEED = Math.trunc(numberFrom("RESMON_RELIABILITY_SEED", DEFAULT_SEED));

/** True inside `pnpm test`, beside every other package's tests on the same cores. */
export const FAST = SCALE < 0.5;

/** `full` cases at scale 1, never fewer than `min`. */
export function scaled(full: number, min: number): number {
  return Math.max(min, Math.round(full * SCALE));
}

/** A vitest timeout for a test whose full-scale run takes about `fullMs`. */
export function testTimeout(fullMs: number, minMs = 120_000): number {
  return Math.max(minMs, Math.round(fullMs * SCALE * 3));
}
