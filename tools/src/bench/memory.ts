/**
 * Resident memory of a stdio server over many calls, for the server and its floor (the same SDK
 * with the table's count of trivial tools, floor-server.mjs) alike: a fresh process, the opening, tools/list and one
 * health call (after start), then `calls` health calls (after calls), then as many again (a leak
 * grows between those two readings; a warm heap does not), and the peak. Each reading follows a
 * forced full collection (gc-on-signal.cjs) when the server is a node script this process can
 * preload into, once RSS has settled after it. The peak is the process's own (VmHWM, read before
 * each forced collection and reset once RSS has settled after it, through /proc/<pid>/clear_refs),
 * so the bench's collections, which a server in use never runs and which move the heap about, do
 * not count in it.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Launch } from "./coldstart.js";
import { StdioRpc } from "./rpc.js";
import { peakRssMiB, rssMiB } from "./stats.js";

const GC_PRELOAD = join(import.meta.dirname, "gc-on-signal.cjs");

export interface MemoryReport {
  calls: number;
  afterStartMiB: number;
  afterCallsMiB: number;
  afterTwiceMiB: number;
  /** The process's highest RSS over the run, the bench's forced collections left out (VmHWM). */
  peakMiB: number;
  /** V8 heap in use at the same readings (NaN without a forced collection). */
  heapAfterCallsMiB: number;
  heapAfterTwiceMiB: number;
  /** Whether each reading followed a full collection (node --expose-gc, gc-on-signal.cjs). */
  forcedGc: boolean;
}

type Reading = { rss: number; heapUsed: number; peakBefore: number };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * RSS (and the V8 heap, after a full collection, where the preload is in) of process `pid` now, and
 * its peak since the last reading (before this reading's collection).
 */
export async function readMemory(pid: number, gcFile: string | null): Promise<Reading> {
  const peakBefore = await peakRssMiB(pid);
  if (gcFile === null) return { rss: await rssMiB(pid), heapUsed: Number.NaN, peakBefore };
  rmSync(gcFile, { force: true });
  process.kill(pid, "SIGUSR2");
  for (let i = 0; i < 500 && !existsSync(gcFile); i += 1) await sleep(10);
  const usage = JSON.parse(readFileSync(gcFile, "utf8")) as { heapUsed: number };
  const rss = await settledRssMiB(pid);
  await resetPeak(pid);
  return { rss, heapUsed: usage.heapUsed / 2 ** 20, peakBefore };
}

/**
 * RSS once what a collection freed is back with the system: V8 hands the freed pages back on a
 * background thread after gc() has returned (read at once, 123 MiB; 20 ms later and on, 86), so
 * this waits until two readings 200 ms apart agree within 0.5 MiB (at most 4 s).
 */
async function settledRssMiB(pid: number): Promise<number> {
  let last = Number.NaN;
  for (let i = 0; i < 20; i += 1) {
    const now = await rssMiB(pid);
    if (Math.abs(now - last) < 0.5) return now;
    last = now;
    await sleep(200);
  }
  return last;
}

/** Resets the process's VmHWM to its RSS now (Linux: 5 written to /proc/<pid>/clear_refs). */
async function resetPeak(pid: number): Promise<void> {
  const { writeFile } = await import("node:fs/promises");
  await writeFile(`/proc/${pid}/clear_refs`, "5").catch(() => undefined);
}

async function callHealth(rpc: StdioRpc, times: number, clearRequests: () => void): Promise<void> {
  for (let i = 1; i <= times; i += 1) {
    const reply = await rpc.callTool("health", {});
    const result = reply.message.result as { isError?: boolean } | undefined;
    if (!result || result.isError)
      throw new Error(`health failed in the memory run: ${reply.line.slice(0, 300)}`);
    if (i % 1000 === 0) clearRequests();
  }
}

export async function measureMemory(
  launch: Launch,
  env: Record<string, string>,
  calls: number,
  clearRequests: () => void = () => undefined,
): Promise<MemoryReport> {
  const forcedGc = launch.command === process.execPath;
  const gcFile = forcedGc ? join(mkdtempSync(join(tmpdir(), "resmon-bench-gc-")), "memory.json") : null;
  const args = forcedGc ? ["--expose-gc", "-r", GC_PRELOAD, ...launch.args] : launch.args;
  const rpc = new StdioRpc(launch.command, args, { ...env, RESMON_BENCH_GC_FILE: gcFile ?? "" });
  try {
    await rpc.handshake();
    await rpc.request("tools/list");
    // After start = the first call answered: the whole server is loaded by then.
    await callHealth(rpc, 1, clearRequests);
    const afterStart = await readMemory(rpc.pid, gcFile);
    await callHealth(rpc, calls, clearRequests);
    const afterCalls = await readMemory(rpc.pid, gcFile);
    await callHealth(rpc, calls, clearRequests);
    const afterTwice = await readMemory(rpc.pid, gcFile);
    return {
      calls,
      afterStartMiB: afterStart.rss,
      afterCallsMiB: afterCalls.rss,
      afterTwiceMiB: afterTwice.rss,
      peakMiB: Math.max(afterStart.peakBefore, afterCalls.peakBefore, afterTwice.peakBefore),
      heapAfterCallsMiB: afterCalls.heapUsed,
      heapAfterTwiceMiB: afterTwice.heapUsed,
      forcedGc,
    };
  } finally {
    await rpc.close();
    if (gcFile !== null) rmSync(dirname(gcFile), { recursive: true, force: true });
  }
}
