/**
 * Cancel (issue 34 point 1): a tool call's cancel (notifications/cancelled, sent by the SDK Client
 * when its signal aborts) reaches every request the call makes. Built from the red team's
 * reproductions against one server process: a write cancelled before its first request sends
 * nothing (run_sweep, the catalog read 1.5 s slow, cancelled 100 ms in: the old code still sent the
 * sweep 1,420 ms after the cancel); one cancelled after its write was sent is said on stderr as
 * possibly done; and storms of call+cancel pairs at 3 s a request leave the next call as fast as
 * before (the old code: all 50 sent, the next health 15.2 s).
 */
import { existsSync } from "node:fs";
import type { Client } from "@modelcontextprotocol/client";
import { TOOL_BY_NAME } from "@resmon/mcp-contract";
import { serverEnv, type Testkit } from "@resmon/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kitFor, tempDir } from "../../src/reliability/context.js";
import { accountForEveryByte } from "../../src/reliability/lifecycle.js";
import { callTool, describe as describeOutcome } from "../../src/reliability/outcome.js";
import { connectClient, SERVER_CLI, type ServerProcess } from "../../src/reliability/proc.js";
import { countCases, note } from "../../src/reliability/record.js";
import { scaled, testTimeout } from "../../src/reliability/scale.js";

const BEFORE_WRITE = scaled(20, 2);
const AFTER_WRITE = scaled(20, 2);
const STORMS = scaled(10, 1);
const STORM_PAIRS = 50;
/** One of the storm's requests: the next call must take less than this. */
const SLOW_MS = 3_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A call the client cancels `afterMs` after sending it; "cancelled" when the SDK gave it up. */
function cancelledCall(client: Client, name: string, args: Record<string, unknown>, afterMs: number) {
  const controller = new AbortController();
  const call = client.callTool({ name, arguments: args }, { signal: controller.signal }).then(
    () => "answered",
    () => "cancelled",
  );
  setTimeout(() => controller.abort("the user moved on"), afterMs);
  return call;
}

describe.skipIf(!existsSync(SERVER_CLI))(
  "cancel: a cancelled call stops, and says what it may have done",
  () => {
    let kit: Testkit;
    let client: Client;
    let proc: ServerProcess;
    beforeAll(async () => {
      kit = await kitFor({ stateDir: tempDir("cancel"), seed: "demo" });
      ({ client, proc } = await connectClient("cancel", serverEnv(kit)));
      expect(describeOutcome(await callTool(client, "health", {}, 15_000))).toBe("success");
    }, 30_000);
    afterAll(async () => {
      await client?.close();
      await kit?.stop();
    });

    it(
      `run_sweep cancelled before its sweep (catalog 1.5 s slow), ${BEFORE_WRITE} times: no sweep sent`,
      async (ctx) => {
        kit.setFault("/api/repositories/catalog", { kind: "delay", ms: 1_500 }, { method: "GET" });
        const before = kit.requests.length;
        try {
          // A server process each: the catalog is read once per process, so each one's first run_sweep waits for it.
          for (let i = 0; i < BEFORE_WRITE; i++) {
            const fresh = await connectClient(`cancel-before-${i}`, serverEnv(kit));
            try {
              const args = { ...TOOL_BY_NAME.run_sweep.example, query: `cancelled ${i}` };
              expect(await cancelledCall(fresh.client, "run_sweep", args, 100)).toBe("cancelled");
              // Past the catalog's answer: a sweep would have been sent by now.
              await sleep(2_000);
            } finally {
              await fresh.client.close();
            }
          }
        } finally {
          kit.setFault("/api/repositories/catalog", null, { method: "GET" });
        }
        const sweeps = kit.requests.slice(before).filter((r) => r.route === "/api/search/sweep").length;
        countCases(ctx, BEFORE_WRITE);
        note(
          ctx,
          `${BEFORE_WRITE} run_sweep (each in a new server process) cancelled 100 ms in: ${sweeps} sweeps sent`,
        );
        expect(sweeps).toBe(0);
      },
      testTimeout(180_000),
    );

    it(
      `create_routine cancelled once its POST reached resmon, ${AFTER_WRITE} times: each said on stderr as possibly done`,
      async (ctx) => {
        kit.setFault("/api/routines", { kind: "delay", ms: 2_000 }, { method: "POST" });
        const said: string[] = [];
        try {
          for (let i = 0; i < AFTER_WRITE; i++) {
            const before = kit.requests.length;
            const stderrBefore = proc.stderr.length;
            const controller = new AbortController();
            const args = { ...TOOL_BY_NAME.create_routine.example, name: `cancelled after send ${i}` };
            const call = client
              .callTool({ name: "create_routine", arguments: args }, { signal: controller.signal })
              .then(
                () => "answered",
                () => "cancelled",
              );
            const posted = () =>
              kit.requests.slice(before).some((r) => r.method === "POST" && r.route === "/api/routines");
            for (let waited = 0; !posted() && waited < 15_000; waited += 20) await sleep(20);
            expect(posted()).toBe(true);
            controller.abort("the user moved on");
            expect(await call).toBe("cancelled");
            const line = () =>
              proc.stderr
                .slice(stderrBefore)
                .split("\n")
                .find((l) => l.includes("create_routine cancelled"));
            for (let waited = 0; !line() && waited < 10_000; waited += 20) await sleep(20);
            said.push(line() ?? "");
          }
        } finally {
          kit.setFault("/api/routines", null, { method: "POST" });
        }
        countCases(ctx, AFTER_WRITE);
        const told = said.filter((l) => l.includes("may have happened") && l.includes("list_routines"));
        note(
          ctx,
          `${told.length} of ${AFTER_WRITE} cancelled create_routine said on stderr as possibly done`,
        );
        expect(told).toHaveLength(AFTER_WRITE);
      },
      testTimeout(180_000),
    );

    it(
      `${STORMS} storm(s) of ${STORM_PAIRS} list_routines+cancel pairs at 3 s a request: the next health is as fast as before`,
      async (ctx) => {
        const alone: number[] = [];
        const after: number[] = [];
        const sent: number[] = [];
        for (let storm = 0; storm < STORMS; storm++) {
          const quiet = await callTool(client, "health", {}, 15_000);
          alone.push(quiet.ms);
          kit.setFault("/api/routines", { kind: "delay", ms: SLOW_MS }, { method: "GET" });
          const before = kit.requests.length;
          try {
            const pairs = Array.from({ length: STORM_PAIRS }, () =>
              cancelledCall(client, "list_routines", {}, 100),
            );
            expect(new Set(await Promise.all(pairs))).toEqual(new Set(["cancelled"]));
            const next = await callTool(client, "health", {}, 30_000);
            expect(describeOutcome(next)).toBe("success");
            after.push(next.ms);
          } finally {
            kit.setFault("/api/routines", null, { method: "GET" });
          }
          sent.push(kit.requests.slice(before).filter((r) => r.route === "/api/routines").length);
          // The cancelled requests' 3 s on the stand-in run out before the next storm.
          await sleep(SLOW_MS);
        }
        countCases(ctx, STORMS);
        const ms = (xs: number[]) => `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)} ms`;
        const figures = `${STORMS} storm(s) of ${STORM_PAIRS} pairs: health alone ${ms(alone)}, right after a storm ${ms(after)}; requests sent per storm ${Math.min(...sent)}–${Math.max(...sent)} of ${STORM_PAIRS}`;
        note(ctx, figures);
        expect(Math.max(...after), figures).toBeLessThan(SLOW_MS);
        expect(Math.max(...sent), figures).toBeLessThanOrEqual(16);
      },
      testTimeout(240_000),
    );

    accountForEveryByte();
  },
);
