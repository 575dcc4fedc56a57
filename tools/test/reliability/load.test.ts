/**
 * Load: 10,000 sequential calls (at scale 1) drawn from every read, then 50 concurrent callers, all
 * against the stand-in through one server process: every call must succeed. The server's RSS is
 * read from /proc after half and after all of the sequential calls; the second half may not add
 * more than a quarter (plus 16 MB of GC slack) to the first.
 */
import { existsSync } from "node:fs";
import type { Client } from "@modelcontextprotocol/client";
import { serverEnv, type Testkit } from "@resmon/testkit";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VALID_CALLS } from "../../src/reliability/calls.js";
import { kitFor, tempDir } from "../../src/reliability/context.js";
import { accountForEveryByte } from "../../src/reliability/lifecycle.js";
import { callTool, describe as describeOutcome } from "../../src/reliability/outcome.js";
import { connectClient, SERVER_CLI, type ServerProcess } from "../../src/reliability/proc.js";
import { countCases, holds, note } from "../../src/reliability/record.js";
import { SEED, scaled, testTimeout } from "../../src/reliability/scale.js";

const SEQUENTIAL = scaled(10_000, 200);
const CALLERS = 50;
const PER_CALLER = scaled(40, 4);
/** A few hundred calls are still the heap's warm-up: the bound is a case only in a run of thousands. */
const RSS_JUDGED = SEQUENTIAL >= 2000;

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

const mb = (kib: number | null) => (kib === null ? "?" : `${(kib / 1024).toFixed(1)} MB`);

describe.skipIf(!existsSync(SERVER_CLI))("load, one server process", () => {
  let kit: Testkit;
  let client: Client;
  let proc: ServerProcess;
  const rss: { start: number | null; half: number | null; end: number | null } = {
    start: null,
    half: null,
    end: null,
  };
  beforeAll(async () => {
    kit = await kitFor({ stateDir: tempDir("load") });
    ({ client, proc } = await connectClient("load", serverEnv(kit)));
    await client.listTools();
    await callTool(client, "health", {}, 10_000);
    rss.start = proc.rssKiB();
  }, 30_000);
  afterAll(async () => {
    await client?.close();
    await kit?.stop();
  });

  it(
    `${SEQUENTIAL} sequential calls drawn from every read: each succeeds`,
    async (ctx) => {
      const latencies: number[] = [];
      const started = performance.now();
      await holds(
        ctx,
        fc.asyncProperty(fc.constantFrom(...VALID_CALLS), async ([tool, args]) => {
          const got = await callTool(client, tool, args, 15_000);
          latencies.push(got.ms);
          if (latencies.length === SEQUENTIAL / 2) rss.half = proc.rssKiB();
          if (kit.requests.length > 5000) kit.clearRequests();
          expect(describeOutcome(got), tool).toBe("success");
        }),
        { numRuns: SEQUENTIAL, seed: SEED },
      );
      rss.end = proc.rssKiB();
      const seconds = (performance.now() - started) / 1000;
      latencies.sort((a, b) => a - b);
      note(
        ctx,
        `${SEQUENTIAL} sequential calls in ${seconds.toFixed(1)} s (${Math.round(SEQUENTIAL / seconds)}/s; p50 ${pct(latencies, 50).toFixed(1)} ms, p99 ${pct(latencies, 99).toFixed(1)} ms, max ${pct(latencies, 100).toFixed(0)} ms); ` +
          `server RSS start ${mb(rss.start)}, after ${SEQUENTIAL / 2} ${mb(rss.half)}, after ${SEQUENTIAL} ${mb(rss.end)}`,
      );
    },
    testTimeout(60_000),
  );

  it.skipIf(!RSS_JUDGED)("the second half of the sequential calls adds at most 25 % + 16 MB of RSS", () => {
    expect(rss.half).not.toBeNull();
    expect(rss.end).not.toBeNull();
    expect(rss.end ?? 0, `RSS ${mb(rss.half)} after half, ${mb(rss.end)} after all`).toBeLessThanOrEqual(
      (rss.half ?? 0) * 1.25 + 16 * 1024,
    );
  });

  it(
    `${CALLERS} concurrent callers × ${PER_CALLER} calls on the same session: each succeeds`,
    async (ctx) => {
      const started = performance.now();
      const results = await Promise.all(
        Array.from({ length: CALLERS }, async (_, caller) => {
          const problems: string[] = [];
          for (let j = 0; j < PER_CALLER; j++) {
            const [tool, args] = VALID_CALLS[
              (caller + j) % VALID_CALLS.length
            ] as (typeof VALID_CALLS)[number];
            const got = await callTool(client, tool, args, 60_000);
            if (got.kind !== "success")
              problems.push(`caller ${caller} #${j} ${tool}: ${describeOutcome(got)}`);
          }
          return problems;
        }),
      );
      countCases(ctx, CALLERS * PER_CALLER);
      note(
        ctx,
        `${CALLERS} concurrent callers × ${PER_CALLER} calls in ${((performance.now() - started) / 1000).toFixed(1)} s; server RSS after them ${mb(proc.rssKiB())}`,
      );
      expect(results.flat()).toEqual([]);
      expect(proc.alive).toBe(true);
    },
    testTimeout(30_000),
  );

  accountForEveryByte();
});
