/**
 * A discovery that outlives the call that started it does not fail the next call (issue 34, seen
 * in the reliability hostile group: a probe dripping on a cold server past the first call's
 * deadline, then dropped; the next call joined it and answered "No answer to GET /api/health").
 * Discoveries are answered by the test, one at a time, so the order is explicit: no timer decides.
 */
import type { Discovery } from "@resmon/api-client";
import { describe, expect, it } from "vitest";
import { Backend, type DiscoverFn } from "../src/backend/adapter.js";
import { fakeClient, foundDiscovery, type SeenRequest } from "./helpers/fake-backend.js";

/** What discovery answers when the probe's connection was dropped part-way (the hostile backend's repair). */
const DROPPED: Discovery = {
  ok: false,
  refusal: {
    kind: "not_answering",
    message:
      "No answer to GET /api/health came from http://127.0.0.1:51734, named by RESMON_PORT: The connection to http://127.0.0.1:51734 closed before a complete answer arrived. No other port was tried.",
    tried: ["http://127.0.0.1:51734"],
    portFile: "/nonexistent-state-dir/resmon.port",
    port: 51734,
    stateDir: "/nonexistent-state-dir",
  },
};

function found(seen: SeenRequest[]): Discovery {
  return foundDiscovery(fakeClient(() => ({ status: 200, body: [] }), seen));
}

/** A discover double: each discovery waits until the test answers it (`answer[n]`, in the order asked). */
function answeredByTheTest(): { discoverFn: DiscoverFn; answer: ((d: Discovery) => void)[] } {
  const answer: ((d: Discovery) => void)[] = [];
  return { discoverFn: () => new Promise((resolve) => answer.push(resolve)), answer };
}

const settled = () => new Promise((r) => setImmediate(r));
const outcomeOf = (p: Promise<unknown>) =>
  p.then(
    (data) => ({ ok: true as const, data }),
    (error: unknown) => ({ ok: false as const, message: (error as Error).message }),
  );

describe("a call that joins a discovery begun before it", () => {
  it("is not failed by it: it gets one fresh discovery, and the call that began it fails alone", async () => {
    const seen: SeenRequest[] = [];
    const { discoverFn, answer } = answeredByTheTest();
    const backend = new Backend({ env: {}, timeoutMs: 60_000, discoverFn });
    const first = outcomeOf(backend.forCall().call((c) => c.GET("/api/routines")));
    await settled();
    expect(answer).toHaveLength(1);
    // The next call begins while the first call's discovery is still under way, and joins it.
    const next = outcomeOf(backend.forCall().call((c) => c.GET("/api/routines")));
    await settled();
    expect(answer).toHaveLength(1);
    answer[0]?.(DROPPED);
    await settled();
    await settled();
    // One fresh discovery, for the next call only.
    expect(answer).toHaveLength(2);
    answer[1]?.(found(seen));
    expect(await first).toMatchObject({ ok: false, message: expect.stringContaining("No answer to GET") });
    expect(await next).toEqual({ ok: true, data: [] });
    expect(seen.map((r) => r.path)).toEqual(["/api/routines"]);
  });

  it("calls begun before the discovery started share its failure: no second discovery", async () => {
    const { discoverFn, answer } = answeredByTheTest();
    const backend = new Backend({ env: {}, timeoutMs: 60_000, discoverFn });
    // Both calls begin before the discovery does (their requests are sent once both exist).
    const calls = [backend.forCall(), backend.forCall()];
    const outcomes = calls.map((call) => outcomeOf(call.call((c) => c.GET("/api/routines"))));
    await settled();
    answer[0]?.(DROPPED);
    await settled();
    await settled();
    expect(answer).toHaveLength(1);
    for (const outcome of await Promise.all(outcomes))
      expect(outcome).toMatchObject({ ok: false, message: expect.stringContaining("No answer to GET") });
  });
});
