// Run in a child process, one of several: in each round's time slot, take the scan's lock once (all
// callers at the same instant); while holding it, count the holders. Caller 0 first leaves a dead
// holder's lock for the round. Prints one line per round: "held <holders>" or "refused <why>".
import { readdirSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { acquireLock } from "../../src/lock.js";
import { lockBody } from "./process.js";

const env = process.env;
const rounds = Number(env.ROUNDS);
const slot = Number(env.SLOT_MS);
const held = String(env.HELD_DIR);
const path = String(env.LOCK_PATH);
const first = env.CALLER === "0";
const pause = new Int32Array(new SharedArrayBuffer(4));
const sleepUntil = (t: number) => {
  while (Date.now() < t) Atomics.wait(pause, 0, 0, Math.max(0, Math.min(5, t - Date.now() - 1)));
  while (Date.now() < t) {}
};

process.stdout.write("ready\n");
const line = await new Promise<string>((resolve) =>
  createInterface({ input: process.stdin }).once("line", resolve),
);
const start = Number(line);
const out: string[] = [];
for (let r = 0; r < rounds; r++) {
  const at = start + r * slot;
  if (first) {
    sleepUntil(at - slot / 3);
    try {
      writeFileSync(path, lockBody(Number(env.DEAD_PID), "scan_start", "2026-01-01T00:00:00Z"), {
        flag: "wx",
      });
    } catch {}
  }
  sleepUntil(at);
  try {
    const lock = acquireLock(path, "scan_continue", new Date());
    const mine = join(held, String(process.pid));
    writeFileSync(mine, "");
    // Held long enough for every other caller of the round to have tried.
    Atomics.wait(pause, 0, 0, slot / 3);
    const holders = readdirSync(held).length;
    unlinkSync(mine);
    lock.release();
    out.push(`held ${holders}`);
  } catch (error) {
    out.push(`refused ${(error as { detail?: { conflict?: string } }).detail?.conflict ?? String(error)}`);
  }
}
process.stdout.write(`${out.join("\n")}\n`);
process.exit(0);
