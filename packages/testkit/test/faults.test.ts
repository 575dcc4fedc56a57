import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Testkit } from "../src/index.js";
import { call, startKit } from "./helpers.js";

describe("faults on demand", () => {
  let kit: Testkit;
  let done: () => Promise<void>;
  beforeAll(async () => {
    ({ kit, done } = await startKit());
  });
  afterAll(async () => done());
  beforeEach(() => kit.clearFaults());

  it("delays one route only", async () => {
    // A delay far longer than any answer on a loaded machine: the undelayed route is under half of it.
    kit.setFault("/api/routines", { kind: "delay", ms: 6_000 });
    let t = Date.now();
    expect((await call(kit, "GET", "/api/routines")).status).toBe(200);
    expect(Date.now() - t).toBeGreaterThanOrEqual(5_990);
    t = Date.now();
    await call(kit, "GET", "/api/health");
    expect(Date.now() - t).toBeLessThan(3_000);
  });

  it("answers a chosen status for a number of requests, then recovers", async () => {
    kit.setFault("/api/health", { kind: "status", status: 503 }, { times: 2 });
    expect((await call(kit, "GET", "/api/health")).status).toBe(503);
    expect((await call(kit, "GET", "/api/health")).status).toBe(503);
    expect((await call(kit, "GET", "/api/health")).status).toBe(200);
  });

  it("can be scoped to a method, or set on every route", async () => {
    kit.setFault(
      "/api/routines",
      { kind: "status", status: 500, body: { detail: "boom" } },
      { method: "POST" },
    );
    expect((await call(kit, "GET", "/api/routines")).status).toBe(200);
    const post = await call(kit, "POST", "/api/routines", {
      name: "x",
      schedule_cron: "* * * * *",
      parameters: { query: "", repositories: [] },
    });
    expect(post.status).toBe(500);
    expect(post.json).toEqual({ detail: "boom" });
    kit.setFault("*", { kind: "status", status: 502 });
    expect((await call(kit, "GET", "/api/watchdog")).status).toBe(502);
  });

  it("serves malformed JSON with a JSON content type", async () => {
    kit.setFault("/api/routines", { kind: "malformed_json" });
    const answer = await call(kit, "GET", "/api/routines");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("application/json");
    expect(answer.json).toBeNull();
  });

  it("drops the connection", async () => {
    kit.setFault("/api/routines", { kind: "drop_connection" });
    await expect(call(kit, "GET", "/api/routines")).rejects.toThrow();
    expect(kit.requests[kit.requests.length - 1]?.status).toBe(0);
  });

  it("hangs until the client gives up", async () => {
    kit.setFault("/api/routines", { kind: "hang" });
    const t = Date.now();
    await expect(
      fetch(`${kit.baseUrl}/api/routines`, {
        headers: { authorization: `Bearer ${kit.token}` },
        signal: AbortSignal.timeout(300),
      }),
    ).rejects.toThrow();
    expect(Date.now() - t).toBeGreaterThanOrEqual(280);
    kit.clearFaults();
    expect((await call(kit, "GET", "/api/health")).status).toBe(200);
  });
});
