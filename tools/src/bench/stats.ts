/** Order statistics over samples in milliseconds. */
export function quantile(samples: readonly number[], q: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[index] as number;
}

export const median = (samples: readonly number[]): number => quantile(samples, 0.5);
export const p99 = (samples: readonly number[]): number => quantile(samples, 0.99);

/** Milliseconds since `start` (a process.hrtime.bigint() reading). */
export function msSince(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** A /proc/<pid>/status size field (VmRSS, VmHWM…) in MiB (Linux); NaN where that is unavailable. */
async function statusMiB(pid: number, field: "VmRSS" | "VmHWM"): Promise<number> {
  const { readFile } = await import("node:fs/promises");
  try {
    const status = await readFile(`/proc/${pid}/status`, "utf8");
    const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, "m").exec(status);
    return match ? Number(match[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** Resident set size of a process in MiB. */
export const rssMiB = (pid: number): Promise<number> => statusMiB(pid, "VmRSS");

/** The highest resident set size the process has had so far (its peak), in MiB. */
export const peakRssMiB = (pid: number): Promise<number> => statusMiB(pid, "VmHWM");

/** CPU time (user + system) a process has used so far, in ms; NaN where /proc is unavailable. */
export async function cpuMs(pid: number): Promise<number> {
  try {
    const { readFile } = await import("node:fs/promises");
    const stat = await readFile(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]);
    return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
  } catch {
    return Number.NaN;
  }
}

/**
 * A path's overhead over its floor from paired samples (tool[i] measured right after direct[i]):
 * the median and p99 of each call's own difference. A difference of two p99s is no p99 of anything
 * (the floor's tail need not fall on the calls where the server's did) and went negative in runs.
 */
export function pairedOverhead(
  tool: readonly number[],
  direct: readonly number[],
): { median: number; p99: number } {
  if (tool.length !== direct.length) throw new Error(`unpaired samples: ${tool.length} vs ${direct.length}`);
  const differences = tool.map((t, i) => t - (direct[i] as number));
  return { median: median(differences), p99: p99(differences) };
}
