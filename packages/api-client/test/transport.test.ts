import { stat } from "node:fs";
import type { Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { AnswerHeaders } from "../src/answer-headers.js";
import { createResmonClient, type ResmonClient } from "../src/index.js";
import { buildRequest, mergeHeaders } from "../src/request.js";
import { classifyNetworkError } from "../src/transport.js";
import { HEALTH_BODY, type LoopbackServer, sendJson, startServer, TOKEN } from "./helpers/loopback-server.js";

const BASE = "http://127.0.0.1:51734";
const withCode = (code: string, nested = false) => {
  const inner = Object.assign(new Error("inner"), { code });
  return nested ? new Error("request failed", { cause: inner }) : inner;
};

describe("classifyNetworkError", () => {
  it.each(["ECONNRESET", "EPIPE", "ERR_STREAM_PREMATURE_CLOSE"])("%s is a dropped connection", (code) => {
    expect(classifyNetworkError(withCode(code, true), BASE)).toEqual({
      kind: "transport",
      message: `The connection to ${BASE} closed before a complete answer arrived.`,
    });
  });

  it("refused and unknown failures are transport failures naming the code, never more", () => {
    expect(classifyNetworkError(withCode("ECONNREFUSED"), BASE).message).toContain("connection refused");
    expect(classifyNetworkError(withCode("HPE_INVALID_CONSTANT"), BASE)).toEqual({
      kind: "transport",
      message: `The request to ${BASE} failed (HPE_INVALID_CONSTANT).`,
    });
    expect(classifyNetworkError("???", BASE)).toEqual({
      kind: "transport",
      message: `The request to ${BASE} failed.`,
    });
  });
});

describe("a request as plain data (openapi-fetch's serializers, no fetch classes)", () => {
  it("merges headers as openapi-fetch does: later wins, null removes, an array appends, names in any case", () => {
    expect(
      mergeHeaders(
        { "Content-Type": "application/json" },
        { Accept: "application/json", "X-Drop": "1" },
        { "content-type": "text/csv", "x-drop": null, "X-Many": ["a", 2] },
        undefined,
      ),
    ).toEqual({ "content-type": "text/csv", accept: "application/json", "x-many": "a, 2" });
    // fetch's HeadersInit forms too, read without naming Headers.
    expect(mergeHeaders([["X-Pair", " v "]], new Map([["X-Map", "m"]]) as never)).toEqual({
      "x-pair": "v",
      "x-map": "m",
    });
  });

  it("refuses a header value Headers would refuse, naming the header and never the value", () => {
    const secret = "tok\nsecret";
    let caught: unknown;
    try {
      mergeHeaders({ Authorization: secret });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(TypeError);
    expect(String(caught)).toContain("authorization");
    expect(String(caught)).not.toContain("secret");
  });

  it("builds the path, query, JSON body and Content-Type", () => {
    const request = buildRequest(
      BASE,
      { Authorization: "Bearer x" },
      "POST",
      "/api/routines/{routine_id}/run",
      {
        params: { path: { routine_id: "a b/c" }, query: { expected_runtime_id: "r", ids: [1, 2] } },
        body: { note: "é" },
      },
    );
    expect(request).toEqual({
      method: "POST",
      path: "/api/routines/a%20b%2Fc/run?expected_runtime_id=r&ids=1&ids=2",
      headers: { "content-type": "application/json", authorization: "Bearer x" },
      body: Buffer.from('{"note":"é"}'),
    });
    expect(buildRequest(BASE, {}, "GET", "/api/health")).toEqual({
      method: "GET",
      path: "/api/health",
      headers: {},
    });
  });
});

describe("AnswerHeaders", () => {
  it("reads as Headers does: any case, repeated values joined, name order", () => {
    const headers = new AnswerHeaders({ "Retry-After": "7", "x-b": ["1", "2"], "x-a": "0", gone: undefined });
    expect(headers.get("retry-after")).toBe("7");
    expect(headers.get("X-B")).toBe("1, 2");
    expect(headers.get("gone")).toBeNull();
    expect(headers.has("x-a")).toBe(true);
    const seen: string[] = [];
    headers.forEach((value, name) => {
      seen.push(`${name}=${value}`);
    });
    expect(seen).toEqual(["retry-after=7", "x-a=0", "x-b=1, 2"]);
    expect([...headers.keys()]).toEqual(["retry-after", "x-a", "x-b"]);
    expect([...headers.values()]).toEqual(["7", "0", "1, 2"]);
    expect([...headers]).toEqual([
      ["retry-after", "7"],
      ["x-a", "0"],
      ["x-b", "1, 2"],
    ]);
  });
});

describe("the keep-alive pool", () => {
  let server: LoopbackServer | undefined;
  let client: ResmonClient | undefined;
  afterEach(async () => {
    await client?.close();
    await server?.close();
    client = undefined;
    server = undefined;
  });

  it("a pooled socket resmon closed before this process read the close is not used: the request goes on a new one", async () => {
    const sockets: Socket[] = [];
    server = await startServer((req, res) => {
      sockets.push(req.socket);
      sendJson(res, 200, HEALTH_BODY);
    });
    client = createResmonClient({ port: server.port, token: TOKEN });
    expect((await client.GET("/api/health")).ok).toBe(true);
    // Back in the pool once the answer has been read.
    await new Promise((resolve) => setTimeout(resolve, 50));
    // From an I/O callback, as a server's work is: the server closes the pooled socket and the next
    // request is made before this process polls again, so Node has not yet read the close.
    const answer = await new Promise<Awaited<ReturnType<ResmonClient["GET"]>>>((resolve) =>
      stat(".", () => {
        sockets[0]?.destroy();
        resolve(client?.GET("/api/health") as never);
      }),
    );
    expect(answer).toMatchObject({ ok: true, data: HEALTH_BODY });
    expect(server.connections).toBe(2);
  });

  it("an idle connection is closed by the client after about 2 s, before uvicorn's 5 s would close it", async () => {
    let closedAfter = Number.NaN;
    server = await startServer((req, res) => {
      const answered = Date.now();
      req.socket.once("close", () => {
        closedAfter = Date.now() - answered;
      });
      sendJson(res, 200, HEALTH_BODY);
    });
    client = createResmonClient({ port: server.port, token: TOKEN });
    expect((await client.GET("/api/health")).ok).toBe(true);
    await expect.poll(() => closedAfter, { timeout: 10_000, interval: 100 }).not.toBeNaN();
    // A timer never fires early; a loaded machine may run it late, but not past uvicorn's 5 s.
    expect(closedAfter).toBeGreaterThanOrEqual(1_900);
    expect(closedAfter).toBeLessThan(5_000);
  });

  it("an answer slower than the idle timeout is still waited for (the idle timeout is not a request timeout)", async () => {
    server = await startServer((_req, res) => setTimeout(() => sendJson(res, 200, HEALTH_BODY), 2_300));
    client = createResmonClient({ port: server.port, token: TOKEN, timeoutMs: 20_000 });
    expect(await client.GET("/api/health")).toMatchObject({ ok: true, data: HEALTH_BODY });
  });

  it("close() lets a request under way finish, then sends nothing more", async () => {
    server = await startServer((_req, res) => setTimeout(() => sendJson(res, 200, HEALTH_BODY), 100));
    client = createResmonClient({ port: server.port, token: TOKEN });
    const under = client.GET("/api/health");
    await expect.poll(() => server?.received.length).toBe(1);
    await client.close();
    expect(await under).toMatchObject({ ok: true, data: HEALTH_BODY });
    expect(await client.GET("/api/health")).toEqual({
      ok: false,
      error: {
        kind: "transport",
        message: `The client for http://127.0.0.1:${server.port} was closed, so the request was not sent.`,
      },
    });
    expect(server.received).toHaveLength(1);
  });
});
