/**
 * Every answer the real backend gave (../shared/resmon/samples), replayed byte-for-byte by a
 * loopback server, comes back from the client as the right typed outcome.
 */
import { readdir, readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiResult, createResmonClient, type ResmonClient } from "../src/index.js";
import { type LoopbackServer, startServer, TOKEN } from "./helpers/loopback-server.js";

interface Sample {
  request: { method: "GET" | "POST" | "PUT"; path: string; body: unknown };
  response: { status: number; headers: Record<string, string>; body: unknown };
}

const SAMPLES = resolve(dirname(fileURLToPath(import.meta.url)), "../../../../shared/resmon/samples");
const files = await readdir(SAMPLES)
  .then((all) => all.filter((f) => f.endsWith(".json")).sort())
  .catch(() => [] as string[]);

let server: LoopbackServer;
let client: ResmonClient;
let current: Sample | undefined;

beforeAll(async () => {
  server = await startServer((_req, res) => {
    const reply = current?.response;
    if (!reply) {
      res.writeHead(500).end();
      return;
    }
    const type = reply.headers["content-type"] ?? "application/json";
    const text = type.startsWith("application/json") ? JSON.stringify(reply.body) : String(reply.body);
    res.writeHead(reply.status, { ...reply.headers, "content-type": type });
    res.end(text);
  });
  client = createResmonClient({ port: server.port, token: TOKEN, timeoutMs: 5_000 });
});

afterAll(async () => {
  await client?.close();
  await server?.close();
});

type LooseSend = (path: string, init?: { body?: unknown }) => Promise<ApiResult<unknown>>;

describe.skipIf(files.length === 0)("replaying the real backend's answers", () => {
  it.each(files)("%s", async (file) => {
    const sample = JSON.parse(await readFile(join(SAMPLES, file), "utf8")) as Sample;
    current = sample;
    const send = client[sample.request.method] as unknown as LooseSend;
    const init = sample.request.body === null ? undefined : { body: sample.request.body };
    const answer = await send(sample.request.path, init);
    const last = server.received.at(-1);
    expect(last?.url).toBe(sample.request.path);
    expect(last?.method).toBe(sample.request.method);
    const { status, body, headers } = sample.response;
    if (status >= 200 && status < 300) {
      expect(answer).toMatchObject({ ok: true, status, data: body });
      return;
    }
    expect(answer.ok).toBe(false);
    if (answer.ok) return;
    const error = answer.error;
    expect(error.kind).toBe("http");
    if (error.kind !== "http") return;
    expect(error.status).toBe(status);
    const detail = (body as { detail?: unknown }).detail;
    expect(error.detail).toEqual(detail);
    const reason = (detail as { reason?: string } | undefined)?.reason;
    expect(error.reason).toBe(typeof reason === "string" ? reason : undefined);
    expect(error.message.length).toBeGreaterThan(0);
    if (headers["retry-after"]) expect(error.retryAfter).toBeGreaterThanOrEqual(0);
  });
});
