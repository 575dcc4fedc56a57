/**
 * One time scale for the delays tests inject (issue 43): a test states its delays, deadlines and
 * holds in ticks, and asserts how they relate (a call cut by its deadline answers before the hold it
 * was cut from ends), never a fixed number of seconds. That lets the ticks be short: what the test
 * proves is the ratio, which a loaded machine keeps. RESMON_TEST_TICK_MS stretches every such delay
 * at once, for a machine slower than a busy 2-core one.
 */
const DEFAULT_TICK_MS = 250;

function tickMs(): number {
  const raw = process.env.RESMON_TEST_TICK_MS;
  if (raw === undefined || raw.trim() === "") return DEFAULT_TICK_MS;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`RESMON_TEST_TICK_MS=${raw} is not a positive number`);
  return value;
}

/** One tick, in milliseconds. */
export const TICK_MS = tickMs();

/** `n` ticks, in whole milliseconds. */
export function ticks(n: number): number {
  return Math.round(n * TICK_MS);
}
