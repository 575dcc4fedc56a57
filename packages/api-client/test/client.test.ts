import { spawn } from "node:child_process";
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  createResmonClient,
  DEFAULT_MAX_BODY_BYTES,
  GUARD_REMEDIES,
  type ResmonClient,
  UNDECLARED_ASKED_FROM,
} from "../src/index.js";
import { GUARD_SENTENCES, guardPasses } from "./helpers/fake-resmon.js";
import {
  deadPort,
  HEALTH_BODY,
  type LoopbackServer,
  sendJson,
  startServer,
  TOKEN,
} from "./helpers/loopback-server.js";

const servers: LoopbackServer[] = [];
const clients: ResmonClient[] = [];

async function serve(handler: Parameters<typeof startServer>[0]): Promise<LoopbackServer> {
  const server = await startServer(handler);
  servers.push(server);
  return server;
}

function clientFor(port: number, extra: { timeoutMs?: number; token?: string } = {}): ResmonClient {
  const client = createResmonClient({
    port,
    token: extra.token ?? TOKEN,
    timeoutMs: extra.timeoutMs ?? 5_000,
  });
  clients.push(client);
  return client;
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe("what goes on the wire", () => {
  it("addresses 127.0.0.1:<port>, sends the bearer token and no Origin, for GET and for POST with a body", async () => {
    let port = 0;
    const server = await serve((req, res) => {
      if (!guardPasses(req, res, port, TOKEN)) return;
      if (req.url?.startsWith("/api/health")) sendJson(res, 200, HEALTH_BODY);
      else sendJson(res, 200, { execution_id: 11 });
    });
    port = server.port;
    const client = clientFor(port);
    expect(client.baseUrl).toBe(`http://127.0.0.1:${port}`);
    expect(client.port).toBe(port);

    const health = await client.GET("/api/health");
    expect(health.ok).toBe(true);
    const sweep = await client.POST("/api/search/sweep", {
      body: { query: "graph", repositories: ["arxiv"] },
    });
    expect(sweep).toMatchObject({ ok: true, status: 200, data: { execution_id: 11 } });

    expect(server.received).toHaveLength(2);
    for (const received of server.received) {
      expect(received.headers.host).toBe(`127.0.0.1:${port}`);
      expect(received.headers.authorization).toBe(`Bearer ${TOKEN}`);
      expect(received.headers.origin).toBeUndefined();
      expect(received.headers.referer).toBeUndefined();
    }
    const post = server.received[1];
    expect(post?.method).toBe("POST");
    expect(post?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(post?.body ?? "")).toEqual({ query: "graph", repositories: ["arxiv"] });
  });

  it("fills path parameters and query strings as declared", async () => {
    const server = await serve((_req, res) => sendJson(res, 200, { id: 9, status: "completed" }));
    const client = clientFor(server.port);
    const runtime = "a557b1b5-0382-4f28-a866-3d5bb2700f73";
    const answer = await client.GET("/api/executions/{exec_id}", {
      params: { path: { exec_id: 9 }, query: { expected_runtime_id: runtime } },
    });
    expect(answer.ok).toBe(true);
    expect(server.received[0]?.url).toBe(`/api/executions/9?expected_runtime_id=${runtime}`);
    await client.PUT("/api/settings/storage", { body: { settings: { pdf_policy: "archive" } } });
    expect(server.received[1]).toMatchObject({ method: "PUT", url: "/api/settings/storage" });
    expect(JSON.parse(server.received[1]?.body ?? "")).toEqual({ settings: { pdf_policy: "archive" } });
  });

  it("reuses connections for sequential requests", async () => {
    const server = await serve((_req, res) => sendJson(res, 200, HEALTH_BODY));
    const client = clientFor(server.port);
    for (let i = 0; i < 10; i += 1) expect((await client.GET("/api/health")).ok).toBe(true);
    expect(server.received).toHaveLength(10);
    // The pool may open a second socket while the first is being released, never one per request.
    expect(server.connections).toBeLessThanOrEqual(2);
  });
});

describe("guard refusals and HTTP errors come back typed", () => {
  it.each([
    ["token_missing", 401],
    ["token_invalid", 401],
    ["host_refused", 403],
    ["origin_refused", 403],
  ] as const)("%s (%i)", async (reason, status) => {
    const server = await serve((_req, res) =>
      sendJson(
        res,
        status,
        { detail: { reason, message: GUARD_SENTENCES[reason] } },
        { "cache-control": "no-store" },
      ),
    );
    const answer = await clientFor(server.port).GET("/api/health");
    expect(answer).toEqual({
      ok: false,
      error: {
        kind: "http",
        status,
        reason,
        detail: { reason, message: GUARD_SENTENCES[reason] },
        // resmon's sentence, then what the holder of the client can do about it.
        message: `${GUARD_SENTENCES[reason]} ${GUARD_REMEDIES[reason]}`,
      },
    });
  });

  it("a real guard refuses a wrong token with token_invalid", async () => {
    let port = 0;
    const server = await serve((req, res) => {
      if (guardPasses(req, res, port, TOKEN)) sendJson(res, 200, HEALTH_BODY);
    });
    port = server.port;
    const answer = await clientFor(port, { token: "x".repeat(43) }).GET("/api/health");
    expect(answer.ok).toBe(false);
    if (!answer.ok)
      expect(answer.error).toMatchObject({ kind: "http", status: 401, reason: "token_invalid" });
  });

  it("a 409 instance_mismatch keeps its structured detail", async () => {
    const detail = {
      code: "instance_mismatch",
      message: "This request reached a different running app.",
      expected_runtime_id: "11111111-2222-4333-8444-555555555555",
      actual_runtime_id: "a557b1b5-0382-4f28-a866-3d5bb2700f73",
    };
    const server = await serve((_req, res) => sendJson(res, 409, { detail }));
    const answer = await clientFor(server.port).GET("/api/health", {
      params: { query: { expected_runtime_id: "11111111-2222-4333-8444-555555555555" } },
    });
    expect(answer).toEqual({
      ok: false,
      error: { kind: "http", status: 409, detail, message: detail.message },
    });
  });

  it("an http error carries resmon's X-Resmon-* headers, where it names a run conflict", async () => {
    const server = await serve((_req, res) =>
      sendJson(
        res,
        409,
        { detail: "Routine 3 is already running as execution 12." },
        {
          "x-resmon-conflict": "routine_already_running",
          "x-resmon-execution-id": "12",
        },
      ),
    );
    const answer = await clientFor(server.port).POST("/api/routines/{routine_id}/run", {
      params: { path: { routine_id: 3 } },
    });
    expect(answer.ok).toBe(false);
    if (!answer.ok && answer.error.kind === "http") {
      expect(answer.error.resmonHeaders).toEqual({
        "x-resmon-conflict": "routine_already_running",
        "x-resmon-execution-id": "12",
      });
    } else {
      throw new Error("expected an http error");
    }
  });

  it("FastAPI's string and list details, and an empty or non-JSON error body", async () => {
    const bodies: Array<[number, string, string]> = [
      [404, JSON.stringify({ detail: "Routine not found" }), "application/json"],
      [
        422,
        JSON.stringify({ detail: [{ type: "missing", loc: ["body", "query"], msg: "Field required" }] }),
        "application/json",
      ],
      [500, "", "application/json"],
      [502, "<html>Bad gateway</html>", "text/html"],
    ];
    let i = 0;
    const server = await serve((_req, res) => {
      const [status, text, type] = bodies[i++] ?? [500, "", "text/plain"];
      res.writeHead(status, { "content-type": type });
      res.end(text);
    });
    const client = clientFor(server.port);
    const errors = [];
    for (let n = 0; n < bodies.length; n += 1) {
      const answer = await client.GET("/api/routines/{routine_id}", { params: { path: { routine_id: n } } });
      expect(answer.ok).toBe(false);
      if (!answer.ok) errors.push(answer.error);
    }
    expect(errors[0]).toEqual({
      kind: "http",
      status: 404,
      detail: "Routine not found",
      message: "Routine not found",
    });
    expect(errors[1]).toMatchObject({ kind: "http", status: 422, message: "Field required (body.query)" });
    expect(errors[2]).toEqual({
      kind: "http",
      status: 500,
      message: "resmon answered HTTP 500 Internal Server Error.",
    });
    expect(errors[3]).toEqual({
      kind: "http",
      status: 502,
      message: "resmon answered HTTP 502 Bad Gateway.",
    });
  });

  it("reads Retry-After seconds on 429", async () => {
    const server = await serve((_req, res) =>
      sendJson(res, 429, { detail: "No admission slot is free." }, { "retry-after": "7" }),
    );
    const answer = await clientFor(server.port).POST("/api/search/sweep", {
      body: { query: "q", repositories: ["arxiv"] },
    });
    expect(answer).toEqual({
      ok: false,
      error: {
        kind: "http",
        status: 429,
        detail: "No admission slot is free.",
        retryAfter: 7,
        message: "No admission slot is free. resmon is busy: try again in 7 s (its Retry-After).",
      },
    });
  });
});

describe("bodies are parsed by content-type", () => {
  it("returns BibTeX as text", async () => {
    const bib = "@article{lovelace2026,\n  title = {Attention over sparse graphs}\n}\n";
    const server = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/x-bibtex" });
      res.end(bib);
    });
    const answer = await clientFor(server.port).GET("/api/executions/{exec_id}/references", {
      params: { path: { exec_id: 1 }, query: { format: "bibtex" } },
    });
    expect(answer).toMatchObject({ ok: true, status: 200, data: bib });
  });

  it("a 2xx with invalid or empty JSON is malformed", async () => {
    const texts = ['{"status": "ok"', ""];
    let i = 0;
    const server = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(texts[i++]);
    });
    const client = clientFor(server.port);
    const first = await client.GET("/api/health");
    const second = await client.GET("/api/health");
    expect(first).toEqual({
      ok: false,
      error: {
        kind: "malformed",
        status: 200,
        message: "resmon answered HTTP 200 with a body that is not valid JSON (application/json).",
      },
    });
    expect(second).toEqual({
      ok: false,
      error: { kind: "malformed", status: 200, message: "resmon answered HTTP 200 with an empty body." },
    });
  });
});

/**
 * A listener in another process that never accepts: its event loop is blocked right after listen,
 * so once its one-slot accept queue is full the kernel drops further SYNs and a connect hangs.
 */
const NEVER_ACCEPTS = `
import net from "node:net";
const server = net.createServer();
server.listen({ host: "127.0.0.1", port: 0, backlog: 1 }, () => {
  process.stdout.write(server.address().port + "\\n");
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 30000);
});`;

describe("failures of the connection", () => {
  // A full accept queue drops a SYN on Linux and macOS, so a connect can be made to hang; Windows
  // refuses it instead ("the client will receive an error with an indication of WSAECONNREFUSED",
  // winsock's listen()), so there is no way to make one hang on loopback there.
  it.skipIf(process.platform === "win32")(
    "a connect that never completes is a connect timeout, long before the total timeout",
    async () => {
      const child = spawn(process.execPath, ["--input-type=module", "-e", NEVER_ACCEPTS], {
        stdio: ["ignore", "pipe", "inherit"],
      });
      const fillers: Socket[] = [];
      try {
        const port = Number(
          await new Promise<string>((resolve) => child.stdout.once("data", (d) => resolve(String(d).trim()))),
        );
        // Fill the accept queue (and then some) so the client's SYN is the one dropped.
        for (let i = 0; i < 4; i += 1) fillers.push(connect(port, "127.0.0.1").on("error", () => undefined));
        await new Promise((resolve) => setTimeout(resolve, 200));
        const client = createResmonClient({ port, token: TOKEN, connectTimeoutMs: 400, timeoutMs: 20_000 });
        clients.push(client);
        const started = Date.now();
        const answer = await client.GET("/api/health");
        expect(answer).toEqual({
          ok: false,
          error: {
            kind: "timeout",
            timeoutMs: 400,
            message: `Could not connect to http://127.0.0.1:${port} within 400 ms.`,
          },
        });
        // The connect timeout, nowhere near the 20 s total (a wide margin for a loaded machine).
        expect(Date.now() - started).toBeLessThan(10_000);
      } finally {
        for (const socket of fillers) socket.destroy();
        child.kill("SIGKILL");
      }
    },
  );

  it("the total timeout fires when no answer comes", async () => {
    const server = await serve(() => {
      /* never answers */
    });
    const started = Date.now();
    const answer = await clientFor(server.port, { timeoutMs: 300 }).GET("/api/health");
    const elapsed = Date.now() - started;
    expect(answer).toEqual({
      ok: false,
      error: {
        kind: "timeout",
        timeoutMs: 300,
        message: `resmon at http://127.0.0.1:${server.port} did not answer within 300 ms.`,
      },
    });
    expect(elapsed).toBeGreaterThanOrEqual(250);
    // The server never answers: without the timeout the call would not end. A wide margin for load.
    expect(elapsed).toBeLessThan(10_000);
  });

  it("the total timeout covers a body that stalls after the headers", async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"status": ');
    });
    const answer = await clientFor(server.port, { timeoutMs: 300 }).GET("/api/health");
    expect(answer.ok).toBe(false);
    if (!answer.ok) expect(answer.error.kind).toBe("timeout");
  });

  it("a dropped connection is a transport failure", async () => {
    const server = await serve((req) => req.socket.destroy());
    const answer = await clientFor(server.port).GET("/api/health");
    expect(answer).toEqual({
      ok: false,
      error: {
        kind: "transport",
        message: `The connection to http://127.0.0.1:${server.port} closed before a complete answer arrived.`,
      },
    });
  });

  it("a connection dropped part-way through the body is a transport failure", async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
      res.write('{"status": "ok"');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const answer = await clientFor(server.port).GET("/api/health");
    expect(answer.ok).toBe(false);
    if (!answer.ok) expect(answer.error.kind).toBe("transport");
  });

  it("a refused connection is a transport failure", async () => {
    const port = await deadPort();
    const answer = await clientFor(port).GET("/api/health");
    expect(answer).toEqual({
      ok: false,
      error: {
        kind: "transport",
        message: `Nothing accepted a connection at http://127.0.0.1:${port} (connection refused).`,
      },
    });
  });

  it("the caller's abort signal cancels the request", async () => {
    const server = await serve(() => {
      /* never answers */
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const answer = await clientFor(server.port).GET("/api/health", { signal: controller.signal });
    expect(answer).toEqual({
      ok: false,
      error: { kind: "transport", message: `The request to http://127.0.0.1:${server.port} was cancelled.` },
    });
  });
});

describe("a view's signal (ViewOptions.signal)", () => {
  it("once aborted, a request of that view is not sent", async () => {
    const server = await serve((_req, res) => sendJson(res, 200, HEALTH_BODY));
    const controller = new AbortController();
    controller.abort();
    const view = clientFor(server.port).within(5_000, { signal: controller.signal });
    const answer = await view.POST("/api/search/sweep", { body: { query: "q", repositories: ["arxiv"] } });
    expect(answer).toEqual({
      ok: false,
      error: {
        kind: "transport",
        message: `The request to http://127.0.0.1:${server.port} was cancelled before it was sent.`,
      },
    });
    const streamed = await view.stream("GET", "/api/health");
    expect(streamed.ok).toBe(false);
    expect(server.connections).toBe(0);
  });

  it("aborts a request in flight, beside the request's own signal", async () => {
    const server = await serve(() => {
      /* never answers */
    });
    const controller = new AbortController();
    const own = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const view = clientFor(server.port).within(5_000, { signal: controller.signal });
    const answer = await view.GET("/api/health", { signal: own.signal });
    expect(answer).toEqual({
      ok: false,
      error: { kind: "transport", message: `The request to http://127.0.0.1:${server.port} was cancelled.` },
    });
  });
});

describe("a view's beforeBody (ViewOptions.beforeBody)", () => {
  it("is given the declared length before the body is read, and its wait is not counted against the timeout", async () => {
    const server = await serve((_req, res) => sendJson(res, 200, HEALTH_BODY));
    const asked: number[] = [];
    // Waits longer than the request's timeout: resmon has answered, the wait is the caller's own.
    const beforeBody = async (bytes: number) => {
      asked.push(bytes);
      await new Promise((r) => setTimeout(r, 1_500));
    };
    const answer = await clientFor(server.port).within(1_000, { beforeBody }).GET("/api/health");
    expect(answer.ok).toBe(true);
    expect(asked).toEqual([Buffer.byteLength(JSON.stringify(HEALTH_BODY))]);
  });

  it("a body of no declared length is counted as it arrives: asked with the ceiling at UNDECLARED_ASKED_FROM, the rest read after", async () => {
    const pad = "x".repeat(2 * UNDECLARED_ASKED_FROM);
    const server = await serve((_req, res) => {
      // No Content-Length: Node sends it chunked, as a backend that streams its answer does.
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"pad": "');
      for (let at = 0; at < pad.length; at += 64 * 1024) res.write(pad.slice(at, at + 64 * 1024));
      res.end('"}');
    });
    const asked: number[] = [];
    let admit: () => void = () => undefined;
    const beforeBody = (bytes: number) => {
      asked.push(bytes);
      return new Promise<void>((r) => {
        admit = r;
      });
    };
    let settled = false;
    const answer = clientFor(server.port)
      .within(5_000, { beforeBody })
      .GET("/api/health")
      .finally(() => {
        settled = true;
      });
    const deadline = Date.now() + 5_000;
    while (asked.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(asked).toEqual([DEFAULT_MAX_BODY_BYTES]);
    // The rest is held back until the room is given: the answer cannot be complete before.
    await new Promise((r) => setTimeout(r, 100));
    expect(settled).toBe(false);
    admit();
    const read = await answer;
    expect(read.ok).toBe(true);
    if (read.ok) expect((read.data as unknown as { pad: string }).pad.length).toBe(pad.length);
  });

  it("a small body of no declared length is never asked about", async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      // Written before the end, so Node cannot declare its length: it goes chunked.
      res.write(JSON.stringify(HEALTH_BODY));
      res.end();
    });
    const asked: number[] = [];
    const beforeBody = async (bytes: number) => void asked.push(bytes);
    const answer = await clientFor(server.port).within(5_000, { beforeBody }).GET("/api/health");
    expect(answer.ok).toBe(true);
    expect(asked).toEqual([]);
  });

  it("the timeout goes on after the wait: a body that stalls is still cut", async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
      res.write('{"status": ');
    });
    const beforeBody = () => new Promise<void>((r) => setTimeout(r, 50));
    const started = Date.now();
    const answer = await clientFor(server.port).within(300, { beforeBody }).GET("/api/health");
    expect(answer.ok).toBe(false);
    if (!answer.ok) expect(answer.error.kind).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe("the token never leaks", () => {
  it("is scrubbed from an error that echoes it back", async () => {
    const server = await serve((req, res) =>
      sendJson(res, 400, {
        detail: { message: `bad header ${req.headers.authorization}`, echoed: [req.headers.authorization] },
      }),
    );
    const answer = await clientFor(server.port).GET("/api/health");
    expect(answer.ok).toBe(false);
    const text = JSON.stringify(answer);
    expect(text).not.toContain(TOKEN);
    expect(text).toContain("<redacted>");
  });

  it("is not reachable from the client object", async () => {
    const client = clientFor(await deadPort());
    expect(JSON.stringify(client)).not.toContain(TOKEN);
    expect(String(client)).not.toContain(TOKEN);
    expect(Object.values(client).map(String).join(" ")).not.toContain(TOKEN);
  });
});

describe("createResmonClient", () => {
  it.each([0, 65_536, 1.5, Number.NaN])("refuses port %s", (port) => {
    expect(() => createResmonClient({ port, token: TOKEN })).toThrow(RangeError);
  });
});
