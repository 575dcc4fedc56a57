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

async function sweep(): Promise<number> {
  const answer = await fetch(`${kit.baseUrl}/api/search/sweep`, {
    method: "POST",
    headers: { Authorization: `Bearer ${kit.token}`, "content-type": "application/json" },
    body: JSON.stringify({ query: "q", repositories: ["arxiv"] }),
  });
  return ((await answer.json()) as { execution_id: number }).execution_id;
}

/** The run's events once it has ended (polled: a loaded machine ends it when it can). */
async function endedEvents(id: number): Promise<Array<{ type: string; status?: string }>> {
  for (let i = 0; i < 300; i += 1) {
    const events = (await get(`/api/executions/${id}/progress/events`)).body as Array<{ type: string }>;
    if (events.at(-1)?.type === "complete") return events;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`execution ${id} never ended`);
}

/** The SSE stream as resmon frames it: `id`, `event`, `data` lines, or a `: heartbeat` comment. */
function framesOf(text: string): Array<{ id?: number; event?: string; data?: unknown; comment?: string }> {
  return text
    .split("\n\n")
    .filter((block) => block !== "")
    .map((block) => {
      if (block.startsWith(":")) return { comment: block.slice(1).trim() };
      const field = (name: string) =>
        block
          .split("\n")
          .find((line) => line.startsWith(`${name}: `))
          ?.slice(name.length + 2);
      return { id: Number(field("id")), event: field("event"), data: JSON.parse(field("data") ?? "null") };
    });
}

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
    const id = await sweep();
    const running = (await get(`/api/executions/${id}/progress/events`)).body as Array<{ type: string }>;
    expect(running.map((e) => e.type)).toEqual(["execution_start", "stage", "repo_start"]);
    kit.releaseRuns();
    const ended = await endedEvents(id);
    expect(ended.at(-1)).toMatchObject({ type: "complete", status: "completed" });
    expect((await get("/api/executions/999999/progress/events")).status).toBe(404);
  });

  it("stream a run's progress as resmon's Server-Sent Events: as it runs, heartbeats, closed at its end", async () => {
    kit.holdRuns();
    const id = await sweep();
    const answer = await fetch(`${kit.baseUrl}/api/executions/${id}/progress/stream`, {
      headers: { Authorization: `Bearer ${kit.token}` },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(answer.headers.get("cache-control")).toBe("no-cache");
    const reader = (answer.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = "";
    // While the run is held: its events so far, then a heartbeat.
    while (!text.includes(": heartbeat")) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the stream ended while the run was running: ${text}`);
      text += decoder.decode(value, { stream: true });
    }
    kit.releaseRuns();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    const frames = framesOf(text);
    const events = frames.filter((f) => f.comment === undefined);
    // The same events as the list route, each once, in order, with its index as the id.
    expect(events.map((f) => f.data)).toEqual(await endedEvents(id));
    expect(events.map((f) => f.id)).toEqual(events.map((_f, i) => i));
    expect(new Set(events.map((f) => f.event))).toEqual(new Set(["progress"]));
    expect(frames.some((f) => f.comment === "heartbeat")).toBe(true);
    // resmon writes each event with json.dumps: ", " and ": " between items.
    expect(text).toContain('data: {"type": "execution_start", ');
  });

  it("stream a finished run's events from last_event_id on, then close; 404 and 422 as resmon", async () => {
    const id = await sweep();
    const all = await endedEvents(id);
    const answer = await fetch(`${kit.baseUrl}/api/executions/${id}/progress/stream?last_event_id=2`, {
      headers: { Authorization: `Bearer ${kit.token}` },
    });
    const frames = framesOf(await answer.text());
    expect(frames.map((f) => f.id)).toEqual(all.slice(2).map((_e, i) => i + 2));
    expect(frames.map((f) => f.data)).toEqual(all.slice(2));
    expect(frames.some((f) => f.comment !== undefined)).toBe(false);
    expect(await get("/api/executions/999999/progress/stream")).toEqual({
      status: 404,
      body: { detail: "Execution not found" },
    });
    expect((await get(`/api/executions/${id}/progress/stream?last_event_id=x`)).status).toBe(422);
  });
});
