/**
 * The benchmark's floors: the stand-in in its own process (and the connections it reports), and
 * the minimal stdio bridge, so the per-call figures compare against what they say they do.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createResmonClient } from "@resmon/api-client";
import { serverEnv } from "@resmon/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CASES, ConnectionCounter, measureSideBySide } from "../src/bench/percall.js";
import { StdioRpc } from "../src/bench/rpc.js";
import { type StandinProcess, startStandinProcess } from "../src/bench/standin.js";

let standin: StandinProcess;
beforeAll(async () => {
  standin = await startStandinProcess(mkdtempSync(join(tmpdir(), "resmon-bench-floors-")));
}, 60_000);
afterAll(async () => {
  await standin?.stop();
  if (standin) rmSync(standin.stateDir, { recursive: true, force: true });
});

describe("the stand-in in its own process", () => {
  it("is another process, answers the API client, and counts its connections as this process's", async () => {
    expect(standin.pid).not.toBe(process.pid);
    const counter = await ConnectionCounter.open(standin);
    const client = createResmonClient({ port: standin.port, token: standin.token });
    try {
      for (let i = 0; i < 3; i += 1) expect((await client.GET("/api/health")).ok).toBe(true);
    } finally {
      await client.close();
    }
    // Back-to-back requests from a fresh client may open a second pooled connection (Node's agent
    // hands the first back a moment after the answer resolves); every one of them is this process's.
    const counted = await counter.dispose();
    expect(counted.server).toBe(0);
    expect(counted.direct).toBeGreaterThanOrEqual(1);
    expect(counted.direct).toBeLessThanOrEqual(2);
  });
});

describe("the minimal stdio bridge", () => {
  it("answers a tool call with the backend's JSON as text and as structuredContent", async () => {
    const rpc = new StdioRpc(
      process.execPath,
      [join(import.meta.dirname, "..", "src", "bench", "bridge.mjs")],
      serverEnv(standin),
    );
    try {
      await rpc.handshake();
      const counter = await ConnectionCounter.open(standin);
      const reply = await rpc.callTool("search_corpus", { query: "model", limit: 3 });
      const result = reply.message.result as {
        content: { text: string }[];
        structuredContent: { results: unknown[] };
      };
      expect(result.structuredContent.results).toHaveLength(3);
      expect(JSON.parse(result.content[0]?.text ?? "null")).toEqual(result.structuredContent);
      // The bridge's connection is the server side of the count, not this process's.
      expect(await counter.dispose()).toEqual({ server: 1, direct: 0 });
    } finally {
      await rpc.close();
    }
  });
});

describe("the server and the bridge side by side", () => {
  it("times both against one direct floor, each case, with every call answered", async () => {
    const bridge = {
      command: process.execPath,
      args: [join(import.meta.dirname, "..", "src", "bench", "bridge.mjs")],
    };
    // The bridge stands in for the server too: the loop is what is under test, not the server.
    const measured = await measureSideBySide(standin, bridge, bridge, 12);
    expect(measured.map((m) => m.label)).toEqual(CASES.map((c) => c.label));
    for (const m of measured) {
      expect([m.server, m.bridge].every(Number.isFinite)).toBe(true);
      const c = CASES.find((x) => x.label === m.label);
      expect(m.calls).toBe(Math.ceil(12 * (c?.share ?? 0)));
    }
  }, 60_000);
});
