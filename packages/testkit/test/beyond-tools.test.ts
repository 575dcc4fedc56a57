/** The routes the stand-in serves for the api-client's examples, beyond the tools' routes. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestkit, type Testkit } from "../src/index.js";

let kit: Testkit;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "testkit-beyond-"));
  kit = await startTestkit({ stateDir: dir });
});
afterAll(async () => {
  await kit?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function get(path: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${kit.baseUrl}${path}`, {
    headers: { Authorization: `Bearer ${kit.token}` },
  });
  return { status: response.status, body: await response.json() };
}

describe("routes beyond the tools", () => {
  it("serve the reading queue by state, with counts, and refuse an unknown state or limit", async () => {
    const all = (await get("/api/reading-queue")).body as {
      entries: unknown[];
      counts: unknown;
      total: number;
    };
    expect(all.entries).toHaveLength(3);
    expect(all.counts).toEqual({ to_read: 2, read: 1, all: 3 });
    const read = (await get("/api/reading-queue?status=read&limit=1")).body as {
      total: number;
      limit: number;
    };
    expect(read).toMatchObject({ total: 1, limit: 1, status: "read" });
    expect((await get("/api/reading-queue?status=later")).status).toBe(400);
    expect((await get("/api/reading-queue?limit=201")).status).toBe(422);
  });

  it("serve a run's progress events, ending with complete once it ends", async () => {
    kit.holdRuns();
    const sweep = await fetch(`${kit.baseUrl}/api/search/sweep`, {
      method: "POST",
      headers: { Authorization: `Bearer ${kit.token}`, "content-type": "application/json" },
      body: JSON.stringify({ query: "q", repositories: ["arxiv"] }),
    });
    const { execution_id: id } = (await sweep.json()) as { execution_id: number };
    const running = (await get(`/api/executions/${id}/progress/events`)).body as Array<{ type: string }>;
    expect(running.map((e) => e.type)).toEqual(["execution_start", "stage", "repo_start"]);
    kit.releaseRuns();
    await new Promise((r) => setTimeout(r, 1800));
    const ended = (await get(`/api/executions/${id}/progress/events`)).body as Array<{
      type: string;
      status?: string;
    }>;
    expect(ended.at(-1)).toMatchObject({ type: "complete", status: "completed" });
    expect((await get("/api/executions/999999/progress/events")).status).toBe(404);
  });
});
