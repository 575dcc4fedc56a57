/**
 * The bench's forced collection before a memory reading (gc-on-signal.cjs), so RSS rows read a
 * collected heap, and the reading taken once what it freed is back with the system (memory.ts).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import { readMemory } from "../src/bench/memory.js";
import { rssMiB } from "../src/bench/stats.js";

const PRELOAD = join(import.meta.dirname, "..", "src", "bench", "gc-on-signal.cjs");
// Keeps ~100 MiB alive, drops it, says so, and stays up until its stdin ends.
const CHILD =
  "let keep=Array.from({length:1e6},(_, i)=>({i,s:'x'+i}));process.stdout.write(String(keep.length));keep=null;process.stdin.resume();process.stdin.on('end',()=>process.exit(0))";

test("SIGUSR2 collects the heap and writes process.memoryUsage() to RESMON_BENCH_GC_FILE", async () => {
  const file = join(mkdtempSync(join(tmpdir(), "resmon-bench-gc-test-")), "memory.json");
  const child = spawn(process.execPath, ["--expose-gc", "-r", PRELOAD, "-e", CHILD], {
    env: { ...process.env, RESMON_BENCH_GC_FILE: file },
    stdio: ["pipe", "pipe", "inherit"],
  });
  await new Promise((resolve) => child.stdout.once("data", resolve));
  child.kill("SIGUSR2");
  for (let i = 0; i < 500 && !existsSync(file); i += 1) await new Promise((r) => setTimeout(r, 10));
  const usage = JSON.parse(readFileSync(file, "utf8")) as { heapUsed: number; rss: number };
  child.stdin.end();
  await new Promise((resolve) => child.once("exit", resolve));
  // The dropped million objects are gone from the heap once collected (they held well over 40 MiB).
  expect(usage.heapUsed).toBeLessThan(20 * 2 ** 20);
  expect(usage.rss).toBeGreaterThan(0);
}, 30_000);

test("a memory reading is RSS once what the collection freed is back with the system, as it stays", async () => {
  const file = join(mkdtempSync(join(tmpdir(), "resmon-bench-gc-test-")), "memory.json");
  const child = spawn(process.execPath, ["--expose-gc", "-r", PRELOAD, "-e", CHILD], {
    env: { ...process.env, RESMON_BENCH_GC_FILE: file },
    stdio: ["pipe", "pipe", "inherit"],
  });
  try {
    await new Promise((resolve) => child.stdout.once("data", resolve));
    const reading = await readMemory(child.pid ?? -1, file);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const later = await rssMiB(child.pid ?? -1);
    // Read as soon as the collection's file was there, RSS was 10-30 MiB above this (the freed pages
    // still mapped); a second later it is where it stays.
    expect(Math.abs(reading.rss - later)).toBeLessThan(2);
  } finally {
    child.stdin.end();
    await new Promise((resolve) => child.once("exit", resolve));
  }
}, 30_000);
