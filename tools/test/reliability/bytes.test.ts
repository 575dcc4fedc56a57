/**
 * Memory bounded by bytes, not calls (issue 34 point 2). What the server holds for answers, queued
 * and being written, has a byte budget (protocol/flow.ts MAX_HELD_CHARS): a harness that pipelines
 * thousands of small requests without reading leaves the server under 200 MB RSS, every request
 * answered. Peak RSS is the server process's own VmHWM (Linux /proc), sampled every 25 ms. Before
 * (7c9cd2d): 10,000 pipelined tools/list with stdout unread 5 s, 670 MB (the issue: 613 MB).
 * Concurrent ~6 MiB pages are not held to 200 MB yet (8 at once: 352 MB): each call's own
 * transient copies, not what waits for the reader, make that peak.
 */
import { existsSync } from "node:fs";
import { serverEnv, type Testkit } from "@resmon/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kitFor, tempDir } from "../../src/reliability/context.js";
import { accountForEveryByte } from "../../src/reliability/lifecycle.js";
import { SERVER_CLI, ServerProcess } from "../../src/reliability/proc.js";
import { countCases, note } from "../../src/reliability/record.js";
import { testTimeout } from "../../src/reliability/scale.js";

const RSS_LIMIT_KIB = 200 * 1024;
/** Past this the server is killed, so a regression cannot take the shared machine down with it. */
const KILL_ABOVE_KIB = 900 * 1024;
/** Not scaled: fewer would not outgrow what the server may hold. */
const PIPELINED = 10_000;

const INITIALIZE = {
  protocolVersion: "2025-06-18",
  capabilities: {},
  clientInfo: { name: "bytes", version: "0" },
};

/** Each answer by id: whether it is a success, and its head (read as text: pages are ~12 MB frames). */
function answersOf(proc: ServerProcess): Map<number, { ok: boolean; head: string }> {
  const answered = new Map<number, { ok: boolean; head: string }>();
  proc.onLine((line) => {
    const id = /"id":(\d+)\}$/.exec(line.slice(-30));
    if (!id) return;
    // The SDK writes a result frame as `{"result":…`; a tool's error sets the result's isError.
    const ok = line.startsWith('{"result":') && !line.includes('"isError":true');
    answered.set(Number(id[1]), { ok, head: line.slice(0, 300) });
  });
  return answered;
}

async function until(done: () => boolean, proc: ServerProcess, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done() && Date.now() < deadline && proc.alive) await new Promise((r) => setTimeout(r, 50));
}

describe.skipIf(!existsSync(SERVER_CLI))("bytes: what the server holds for answers", () => {
  let kit: Testkit;
  beforeAll(async () => {
    kit = await kitFor({ stateDir: tempDir("bytes"), seed: "demo" });
  }, 60_000);
  afterAll(async () => {
    await kit?.stop();
  });

  it(
    `${PIPELINED} pipelined tools/list with stdout unread for 5 s: all answered, RSS under 200 MB`,
    async (ctx) => {
      const proc = new ServerProcess("bytes-pipelined", serverEnv(kit));
      const stopGuard = proc.guardRss(KILL_ABOVE_KIB);
      const answered = answersOf(proc);
      let peak: number | null = null;
      const started = performance.now();
      try {
        proc.send({ id: 0, method: "initialize", params: INITIALIZE });
        proc.notify("notifications/initialized");
        await until(() => answered.has(0), proc, 15_000);
        proc.child.stdout.pause();
        let lines = "";
        for (let id = 1; id <= PIPELINED; id += 1)
          lines += `${JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list" })}\n`;
        proc.write(lines);
        await new Promise((r) => setTimeout(r, 5_000));
        proc.child.stdout.resume();
        await until(() => answered.size >= PIPELINED + 1, proc, 120_000);
      } finally {
        proc.child.stdout.resume();
        peak = stopGuard();
      }
      const seconds = (performance.now() - started) / 1000;
      const lists = [...answered.entries()].filter(([id, a]) => id >= 1 && a.ok).length;
      countCases(ctx, PIPELINED);
      const figures = `${lists} of ${PIPELINED} tools/list answered in ${seconds.toFixed(1)} s (${(proc.stdoutBytes / 1e6).toFixed(0)} MB written); peak server RSS ${((peak ?? 0) / 1024).toFixed(1)} MB (limit 200 MB)${proc.killedForRssKiB ? ", killed" : ""}`;
      note(ctx, figures);
      expect(lists, figures).toBe(PIPELINED);
      expect(peak ?? Number.POSITIVE_INFINITY, figures).toBeLessThan(RSS_LIMIT_KIB);
      await proc.stop();
    },
    testTimeout(180_000),
  );

  accountForEveryByte();
});
