/** `serve --as`: the stand-in plays resmon 1.6 and 1.7 as their public history has them (releases.ts). */
import { readdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUBLIC_BUILD, type Testkit } from "../src/index.js";
import { call, startKit } from "./helpers.js";

describe("the stand-in as resmon 1.6", () => {
  let kit: Testkit;
  let done: () => Promise<void>;
  beforeAll(async () => {
    ({ kit, done } = await startKit({ as: "1.6" }));
  });
  afterAll(() => done());

  it("reports 1.6.1 and lists only the routes 1.6 served in its /openapi.json", async () => {
    expect((await call(kit, "GET", "/api/health")).json).toMatchObject({ version: "1.6.1" });
    const doc = (await call(kit, "GET", "/openapi.json")).json as { paths: Record<string, unknown> };
    expect(doc.paths["/api/routines"]).toBeDefined();
    expect(doc.paths["/api/profiles"]).toBeUndefined();
    expect(doc.paths["/api/watchdog"]).toBeUndefined();
  });

  it("answers a route it lacks as FastAPI does, 404 Not Found", async () => {
    const answer = await call(kit, "GET", "/api/profiles");
    expect(answer.status).toBe(404);
    expect(answer.json).toEqual({ detail: "Not Found" });
  });

  it("has no JSON export, needs document_ids, and has no missed_fires", async () => {
    const json = await call(kit, "GET", "/api/executions/1/references?format=json");
    expect(json.status).toBe(400);
    expect(json.json).toEqual({ detail: "Unknown export format 'json'. Expected one of: bibtex, csv, ris." });
    const byRun = await call(kit, "POST", "/api/export/references", { format: "ris", execution_ids: [1] });
    expect(byRun.status).toBe(400); // execution_ids is undeclared there (1.6 would ignore it)
    const none = await call(kit, "POST", "/api/export/references", { format: "ris" });
    expect(none.status).toBe(422);
    const rows = (await call(kit, "GET", "/api/routines")).json as Record<string, unknown>[];
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row).not.toHaveProperty("missed_fires");
  });
});

describe("the stand-in as resmon 1.7", () => {
  let kit: Testkit;
  let done: () => Promise<void>;
  beforeAll(async () => {
    ({ kit, done } = await startKit({ as: "1.7" }));
  });
  afterAll(() => done());

  it("serves the 1.7 routes and not the 2.3 ones", async () => {
    expect((await call(kit, "GET", "/api/watchdog")).status).toBe(200);
    expect((await call(kit, "GET", "/api/profiles")).status).toBe(404);
  });

  it("refuses to play a release it has no table for", async () => {
    await expect(startKit({ as: "1.5" })).rejects.toThrow(/1\.6, 1\.7 and 2\.3/);
  });
});

describe("the stand-in as the public 1.6 build, unguarded", () => {
  let kit: Testkit;
  let dir: string;
  let done: () => Promise<void>;
  beforeAll(async () => {
    ({ kit, dir, done } = await startKit({ as: "1.6", unguarded: true }));
  });
  afterAll(() => done());

  it("answers without a token, health as resmon.py's health() wrote it (no identity)", async () => {
    const health = await fetch(`${kit.baseUrl}/api/health`);
    expect(health.status).toBe(200);
    const body = (await health.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual([...PUBLIC_BUILD.healthKeys].sort());
    expect(body).toMatchObject({ status: "ok", version: "1.6.1" });
    expect((await fetch(`${kit.baseUrl}/api/routines`)).status).toBe(200);
  });

  it("writes no token file and no port file", () => {
    expect(kit.portFile).toBeNull();
    expect(readdirSync(dir)).toEqual([]);
  });

  it("is refused for 2.3, which always guards", async () => {
    await expect(startKit({ as: "2.3", unguarded: true })).rejects.toThrow(/guards its local API/);
  });
});
