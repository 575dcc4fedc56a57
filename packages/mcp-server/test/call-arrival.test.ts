import { describe, expect, it } from "vitest";
import { noteArrival, takeArrival } from "../src/protocol/arrivals.js";
import { createResmonTools } from "../src/server.js";
import { fakeDiscover } from "./helpers/fake-backend.js";

const HEALTH = {
  status: "ok",
  version: "2.3.0",
  identity: {
    contract_version: 1,
    runtime_id: "a557b1b5-0382-4f28-a866-3d5bb2700f73",
    schema_version: 21,
    corpus_id: null,
    build_id: null,
  },
};

describe("a call's deadline counts from when it arrived", () => {
  it("a call that arrived a whole timeout ago sends nothing and says the time ran out", async () => {
    const fake = fakeDiscover(() => ({ status: 200, body: HEALTH }));
    const tools = createResmonTools({
      env: { RESMON_PORT: "51734" },
      discoverFn: fake.discoverFn,
      timeoutMs: 1_000,
    });
    try {
      const late = await tools.call("health", {}, Date.now() - 5_000);
      expect(late.ok).toBe(false);
      if (late.ok) return;
      expect(late.error.error).toBe("backend_unavailable");
      expect(late.error.message).toContain("RESMON_MCP_TIMEOUT_MS");
      expect(fake.seen).toHaveLength(0);
      // Arrived now (or with no arrival noted): the whole timeout is left.
      expect((await tools.call("health", {}, Date.now())).ok).toBe(true);
      expect((await tools.call("health", {})).ok).toBe(true);
    } finally {
      await tools.close();
    }
  });

  it("an arrival in the future is read as now, so it cannot lengthen a call", async () => {
    // Finding resmon never ends: only the call's deadline ends the call. Read as now, that is 300 ms
    // (+ 1 s of slack) away; taken as given, a minute away.
    const tools = createResmonTools({
      env: { RESMON_PORT: "51734" },
      discoverFn: () => new Promise(() => undefined),
      timeoutMs: 300,
    });
    try {
      const started = Date.now();
      const outcome = await tools.call("health", {}, Date.now() + 60_000);
      expect(outcome.ok).toBe(false);
      // Far under the minute, with a wide margin for a loaded machine.
      expect(Date.now() - started).toBeLessThan(20_000);
    } finally {
      await tools.close();
    }
  });

  it("arrivals are taken once, and a refused call's entry cannot pile up", () => {
    noteArrival("a", 1);
    expect(takeArrival("a")).toBe(1);
    expect(takeArrival("a")).toBeUndefined();
    for (let i = 0; i < 5_000; i++) noteArrival(`never-taken-${i}`, i);
    expect(takeArrival("never-taken-0")).toBeUndefined();
    expect(takeArrival("never-taken-4999")).toBe(4_999);
  });
});
