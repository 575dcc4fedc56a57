/**
 * client.stream: a 2xx body handed on as it arrives (a 64 MiB export passes through without being
 * held), bounded by the same deadline, a byte cap, an error answer typed as any other, and a
 * caller that stops early releasing the connection.
 */
import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { ApiStreamError, createResmonClient, type ResmonClient } from "../src/index.js";
import { type LoopbackServer, startServer, TOKEN } from "./helpers/loopback-server.js";

const MiB = 1024 * 1024;
const CHUNK = Buffer.alloc(MiB, "@article{x, title = {a}}\n");

let server: LoopbackServer | undefined;
let client: ResmonClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

/** Write `chunks` MiB of BibTeX, respecting backpressure, `pauseMs` between chunks. */
async function writeExport(res: ServerResponse, chunks: number, pauseMs = 0): Promise<void> {
  res.writeHead(200, { "content-type": "application/x-bibtex; charset=utf-8" });
  for (let i = 0; i < chunks && !res.destroyed; i += 1) {
    if (!res.write(CHUNK)) await new Promise((r) => res.once("drain", r));
    if (pauseMs > 0) await new Promise((r) => setTimeout(r, pauseMs));
  }
  res.end();
}

const refs = { params: { path: { exec_id: 1 }, query: { format: "bibtex" as const } } };

describe("client.stream", () => {
  it("passes a 64 MiB export through as it arrives (far past maxBodyBytes)", async () => {
    // The server writes 4 MiB, then waits until the caller has seen a chunk before writing the
    // other 60: a client that held the body until its end would never hand one on.
    let sawChunk: () => void = () => {};
    const seen = new Promise<void>((resolve) => {
      sawChunk = resolve;
    });
    let written = 0;
    server = await startServer((_req, res) => {
      void (async () => {
        res.writeHead(200, { "content-type": "application/x-bibtex; charset=utf-8" });
        for (let i = 0; i < 64 && !res.destroyed; i += 1) {
          if (i === 4) await seen;
          if (!res.write(CHUNK)) await new Promise((r) => res.once("drain", r));
          written += 1;
        }
        res.end();
      })();
    });
    client = createResmonClient({ port: server.port, token: TOKEN });
    const answer = await client.stream("GET", "/api/executions/{exec_id}/references", refs);
    if (!answer.ok) throw new Error(answer.error.message);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toContain("bibtex");
    let bytes = 0;
    let writtenAtFirstChunk = -1;
    for await (const chunk of answer.body) {
      if (writtenAtFirstChunk < 0) {
        writtenAtFirstChunk = written;
        sawChunk();
      }
      bytes += chunk.byteLength;
    }
    expect(bytes).toBe(64 * MiB);
    expect(writtenAtFirstChunk).toBeLessThanOrEqual(4);
  }, 60_000);

  it("refuses the same answer on the buffered path (the 6 MiB ceiling)", async () => {
    server = await startServer((_req, res) => void writeExport(res, 16));
    client = createResmonClient({ port: server.port, token: TOKEN });
    const buffered = await client.GET("/api/executions/{exec_id}/references", refs);
    expect(buffered.ok).toBe(false);
    if (!buffered.ok) expect(buffered.error.kind).toBe("too_large");
  });

  it("bounds reading the body by the same deadline, failing with ApiStreamError(timeout)", async () => {
    // 300 chunks 100 ms apart: 30 s of body against a 600 ms deadline.
    server = await startServer((_req, res) => void writeExport(res, 300, 100));
    client = createResmonClient({ port: server.port, token: TOKEN, timeoutMs: 600 });
    const answer = await client.stream("GET", "/api/executions/{exec_id}/references", refs);
    if (!answer.ok) throw new Error(answer.error.message);
    const started = Date.now();
    let caught: unknown;
    try {
      for await (const _chunk of answer.body) {
        /* read on */
      }
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ApiStreamError);
    expect((caught as ApiStreamError).apiError).toMatchObject({ kind: "timeout", timeoutMs: 600 });
    // Far under the 30 s an uncut body takes, with a wide margin for a loaded machine.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("honours within(ms) as the deadline for the whole stream", async () => {
    server = await startServer((_req, res) => void writeExport(res, 50, 100));
    client = createResmonClient({ port: server.port, token: TOKEN, timeoutMs: 30_000 });
    const answer = await client.within(400).stream("GET", "/api/executions/{exec_id}/references", refs);
    if (!answer.ok) throw new Error(answer.error.message);
    await expect(
      (async () => {
        for await (const _chunk of answer.body) {
          /* read on */
        }
      })(),
    ).rejects.toMatchObject({ apiError: { kind: "timeout", timeoutMs: 400 } });
  });

  it("stops at maxBytes with too_large", async () => {
    server = await startServer((_req, res) => void writeExport(res, 8));
    client = createResmonClient({ port: server.port, token: TOKEN });
    const answer = await client.stream("GET", "/api/executions/{exec_id}/references", {
      ...refs,
      maxBytes: 2 * MiB,
    });
    if (!answer.ok) throw new Error(answer.error.message);
    let bytes = 0;
    const read = (async () => {
      for await (const chunk of answer.body) bytes += chunk.byteLength;
    })();
    await expect(read).rejects.toMatchObject({
      apiError: { kind: "too_large", limit: "bytes", limitBytes: 2 * MiB },
    });
    expect(bytes).toBeLessThanOrEqual(2 * MiB);
  });

  it.each([
    ["NaN", Number.NaN],
    ["a negative number", -1],
    ["a string", "1024"],
  ])("refuses maxBytes of %s before sending anything, never reading uncapped", async (_what, maxBytes) => {
    let requests = 0;
    server = await startServer((_req, res) => {
      requests += 1;
      void writeExport(res, 8);
    });
    client = createResmonClient({ port: server.port, token: TOKEN });
    await expect(
      client.stream("GET", "/api/executions/{exec_id}/references", {
        ...refs,
        maxBytes: maxBytes as number,
      }),
    ).rejects.toThrow(RangeError);
    expect(requests).toBe(0);
  });

  it("answers a non-2xx as a typed http error, without the token", async () => {
    server = await startServer((_req, res) => {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ detail: `Execution not found (${TOKEN})` }));
    });
    client = createResmonClient({ port: server.port, token: TOKEN });
    const answer = await client.stream("GET", "/api/executions/{exec_id}/references", refs);
    expect(answer.ok).toBe(false);
    if (answer.ok) return;
    expect(answer.error).toMatchObject({ kind: "http", status: 404 });
    expect(JSON.stringify(answer.error)).not.toContain(TOKEN);
  });

  it("sends the typed request (path, query, bearer token) and releases the connection when the caller stops early", async () => {
    let closed: () => void = () => {};
    const serverSawClose = new Promise<void>((resolve) => {
      closed = resolve;
    });
    let finished = false;
    server = await startServer((_req, res) => {
      res.on("close", () => closed());
      res.on("finish", () => {
        finished = true;
      });
      void writeExport(res, 256);
    });
    client = createResmonClient({ port: server.port, token: TOKEN });
    const answer = await client.stream("GET", "/api/executions/{exec_id}/references", refs);
    if (!answer.ok) throw new Error(answer.error.message);
    for await (const _chunk of answer.body) break;
    // Unread, 256 MiB would hold the server on backpressure for good; the socket is destroyed instead.
    await serverSawClose;
    expect(finished).toBe(false);
    expect(server.received[0]?.url).toBe("/api/executions/1/references?format=bibtex");
    expect(server.received[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });
});
