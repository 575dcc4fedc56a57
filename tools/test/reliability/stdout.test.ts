/**
 * stdout under faults (issue 25): many concurrent large answers read by a harness that stalls and
 * then reads slowly must all be answered, the server under 200 MB RSS (it waits for the pipe and
 * holds a bounded number of calls); a stdout that fails with anything but EPIPE (here /dev/full,
 * ENOSPC) ends the server promptly with one line on stderr, instead of leaving the harness waiting.
 * Before the fix (b1f5e9c) the first failed at a peak RSS of ~300 MB (with 1.5 MB frames: killed
 * at 700 MB, 6 of 200 answered), the second never ended.
 */
import { spawn } from "node:child_process";
import { closeSync, existsSync, openSync } from "node:fs";
import { createResmonClient } from "@resmon/api-client";
import { serverEnv, type Testkit } from "@resmon/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kitFor, tempDir } from "../../src/reliability/context.js";
import { accountForEveryByte } from "../../src/reliability/lifecycle.js";
import { currentServerFile, SERVER_CLI, ServerProcess } from "../../src/reliability/proc.js";
import { countCases, note } from "../../src/reliability/record.js";
import { testTimeout } from "../../src/reliability/scale.js";

/** Not scaled: fewer calls would not outgrow what the server may hold, so `pnpm test` runs all 200 too. */
const CALLS = 200;
const RSS_LIMIT_KIB = 200 * 1024;
/** Past this the server is killed, so a regression cannot take the shared machine down with it. */
const KILL_ABOVE_KIB = 600 * 1024;
/** Authors per paper: a large collaboration's list, ~240 KiB a 100-paper frame. */
const AUTHORS = 60;

describe.skipIf(!existsSync(SERVER_CLI))("stdout: backpressure and fatal errors", () => {
  let kit: Testkit;
  beforeAll(async () => {
    kit = await kitFor({ stateDir: tempDir("stdout"), seed: "demo" });
    const client = createResmonClient({ port: kit.port, token: kit.token });
    const answer = await client.POST("/api/explorer/search", {
      body: { query: "model", limit: 100, sort: "newest" },
    });
    await client.close();
    if (!answer.ok) throw new Error("the stand-in did not answer the search");
    const page = answer.data as unknown as { results: Record<string, unknown>[] };
    const authors = Array.from({ length: AUTHORS }, (_, i) => `Author Number${i}`).join(", ");
    const results = page.results.map((paper) => ({ ...paper, authors }));
    kit.setFault("/api/explorer/search", { kind: "status", status: 200, body: { ...page, results } });
  }, 30_000);
  afterAll(async () => {
    await kit?.stop();
  });

  it(
    `${CALLS} concurrent 100-paper pages, read after a 3 s stall at half speed: every one answered, RSS under 200 MB`,
    async (ctx) => {
      // The calls wait for the reader, not for resmon: no deadline should end one here.
      const proc = new ServerProcess("stdout-load", { ...serverEnv(kit), RESMON_MCP_TIMEOUT_MS: "300000" });
      const stopGuard = proc.guardRss(KILL_ABOVE_KIB);
      const answered = new Map<number, boolean>();
      type Frame = { id?: unknown; result?: { structuredContent?: { papers?: unknown[] } } };
      proc.onLine((line) => {
        let frame: Frame;
        try {
          frame = JSON.parse(line) as Frame;
        } catch {
          return; // the process records a line that is not a frame as a finding
        }
        if (typeof frame.id === "number")
          answered.set(frame.id, frame.result?.structuredContent?.papers?.length === 100);
      });
      const started = performance.now();
      proc.child.stdout.pause();
      let ticks = 0;
      const reader = setInterval(() => {
        ticks += 1;
        if (ticks > 30 && ticks % 2 === 0) proc.child.stdout.resume();
        else proc.child.stdout.pause();
      }, 100);
      let peak: number | null = null;
      try {
        proc.send({
          id: 0,
          method: "initialize",
          params: {
            protocolVersion: "2025-06-18",
            capabilities: {},
            clientInfo: { name: "slow", version: "0" },
          },
        });
        proc.notify("notifications/initialized");
        let lines = "";
        for (let id = 1; id <= CALLS; id += 1)
          lines += `${JSON.stringify({
            jsonrpc: "2.0",
            id,
            method: "tools/call",
            params: { name: "search_corpus", arguments: { query: "model", limit: 100 } },
          })}\n`;
        proc.write(lines);
        const deadline = Date.now() + 150_000;
        while (answered.size < CALLS + 1 && Date.now() < deadline && proc.alive)
          await new Promise((resolve) => setTimeout(resolve, 50));
      } finally {
        clearInterval(reader);
        proc.child.stdout.resume();
        peak = stopGuard();
      }
      const seconds = (performance.now() - started) / 1000;
      const calls = [...answered.entries()].filter(([id]) => id >= 1);
      const whole = calls.filter(([, hundred]) => hundred).length;
      countCases(ctx, CALLS);
      const figures = `${calls.length} of ${CALLS} answered (${whole} with their 100 papers) in ${seconds.toFixed(1)} s, ${(proc.stdoutBytes / 1e6).toFixed(1)} MB written; peak server RSS ${((peak ?? 0) / 1024).toFixed(1)} MB (limit 200 MB)${proc.killedForRssKiB ? ", killed" : ""}`;
      note(ctx, figures);
      expect(whole, figures).toBe(CALLS);
      expect(peak ?? Number.POSITIVE_INFINITY, figures).toBeLessThan(RSS_LIMIT_KIB);
      await proc.stop();
    },
    testTimeout(60_000),
  );

  it("a stdout that fails with ENOSPC (/dev/full) ends the server with one line on stderr", async (ctx) => {
    const full = openSync("/dev/full", "w");
    const child = spawn(process.execPath, [currentServerFile()], {
      env: serverEnv(kit),
      stdio: ["pipe", full, "pipe"],
    });
    closeSync(full);
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    const started = performance.now();
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    child.stdin?.write(
      `${JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "full", version: "0" },
        },
      })}\n`,
    );
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    const code = await exited;
    clearTimeout(timer);
    const ms = Math.round(performance.now() - started);
    const failures = stderr.split("\n").filter((line) => line.includes("stdout failed"));
    countCases(ctx, 1);
    note(
      ctx,
      `stdout on /dev/full: exit code ${code} after ${ms} ms; stderr said: ${failures[0] ?? "nothing"}`,
    );
    expect(code, stderr).toBe(1);
    expect(failures, stderr).toHaveLength(1);
    expect(failures[0]).toContain("ENOSPC");
  }, 20_000);

  accountForEveryByte();
});
