/**
 * The built server against a hostile or broken backend (issue 15): answers past the body ceiling,
 * port and token files that are not small regular files, a dead named port with no state dir, a 401
 * worded by what resmon said. Each through `node dist/resmon-mcp.js` over stdio, as a harness runs it;
 * peak memory is the child's own VmHWM (Linux).
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { discover } from "@resmon/api-client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createResmonTools } from "../src/server.js";
import { cleanEnv, HAVE_CLI, RawServer } from "./helpers/spawn.js";

const MiB = 1024 * 1024;
const isLinux = process.platform === "linux";
const newToken = () => randomBytes(33).toString("base64url");

type Route = (req: IncomingMessage, res: ServerResponse) => void;

interface Listener {
  port: number;
  token: string;
  closedSockets: number;
  routes: Map<string, Route>;
  close(): Promise<void>;
}

const HEALTH = {
  status: "ok",
  version: "1.8.3",
  identity: {
    contract_version: 1,
    runtime_id: "a557b1b5-0382-4f28-a866-3d5bb2700f73",
    schema_version: 21,
    corpus_id: null,
    build_id: null,
  },
  embeddings: null,
};

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

/** A resmon-shaped listener: the bearer guard, health, and whatever routes a test sets. */
async function listen(token = newToken()): Promise<Listener> {
  const routes = new Map<string, Route>();
  const sockets = new Set<Socket>();
  const state = { closedSockets: 0 };
  const server: Server = createServer((req, res) => {
    if (req.headers.authorization !== `Bearer ${token}`) {
      json(res, 401, { detail: { reason: "token_invalid", message: "not this resmon's token" } });
      return;
    }
    const path = (req.url ?? "").split("?")[0] ?? "";
    const route = routes.get(path);
    if (route) route(req, res);
    else if (path === "/api/health") json(res, 200, HEALTH);
    else if (path === "/api/routines") json(res, 200, []);
    else json(res, 404, { detail: "Not Found" });
  });
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => {
      sockets.delete(socket);
      state.closedSockets += 1;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    token,
    get closedSockets() {
      return state.closedSockets;
    },
    routes,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A JSON-looking body of `total` bytes (Infinity: endless), sent chunked, as fast as the socket takes it. */
function streamed(total: number): Route {
  return (_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    const chunk = Buffer.from(`${'"x",'.repeat(16_384)}`);
    let sent = 0;
    const pump = () => {
      while (!res.destroyed && sent < total) {
        sent += chunk.length;
        if (!res.write(chunk)) {
          res.once("drain", pump);
          return;
        }
      }
      if (!res.destroyed) res.end();
    };
    pump();
  };
}

let root = "";
const listeners: Listener[] = [];
const servers: RawServer[] = [];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "resmon-mcp-hostile-"));
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
  await Promise.all(listeners.splice(0).map((l) => l.close()));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function stateFor(listener: Listener, name: string): Promise<string> {
  const dir = join(root, name);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, `api-token-${listener.port}`), `${listener.token}\n`, { mode: 0o600 });
  return dir;
}

async function started(env: Record<string, string>): Promise<RawServer> {
  const server = new RawServer(cleanEnv(env));
  servers.push(server);
  await server.initialize();
  return server;
}

let nextId = 1;
async function callTool(server: RawServer, name: string, args: Record<string, unknown> = {}) {
  const begun = Date.now();
  const frame = await server.request(nextId++, "tools/call", { name, arguments: args });
  const result = frame.result as { isError?: boolean; content: { text: string }[] };
  return {
    ms: Date.now() - begun,
    isError: result.isError === true,
    body: JSON.parse(result.content[0]?.text ?? "{}") as Record<string, unknown>,
  };
}

/** Peak resident set of a live process, in MB (Linux /proc VmHWM). */
function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmHWM:\s+(\d+)\s+kB/.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

describe.skipIf(!HAVE_CLI)("the built server against a hostile backend", { timeout: 60_000 }, () => {
  it.each([
    ["an endless body", Number.POSITIVE_INFINITY],
    ["a 100 MB body", 100 * MiB],
  ])(
    "%s is upstream_error naming the ceiling, memory stays low, the next call works",
    async (_what, size) => {
      const listener = await listen();
      listeners.push(listener);
      listener.routes.set("/api/watchdog", streamed(size));
      const server = await started({
        RESMON_PORT: String(listener.port),
        RESMON_STATE_DIR: await stateFor(listener, `big-${size}`),
      });
      const closedBefore = listener.closedSockets;
      const answer = await callTool(server, "get_watchdog_findings");
      expect(answer.isError).toBe(true);
      expect(answer.body).toMatchObject({ error: "upstream_error", detail: { limit_bytes: 16 * MiB } });
      expect(String(answer.body.message)).toContain("16 MiB");
      expect(String(answer.body.message)).toContain("RESMON_MCP_MAX_BODY_BYTES");
      // The connection was destroyed, not drained.
      await expect.poll(() => listener.closedSockets, { timeout: 3_000 }).toBeGreaterThan(closedBefore);
      const next = await callTool(server, "list_routines");
      expect(next).toMatchObject({ isError: false, body: { routines: [] } });
      if (isLinux && server.child.pid !== undefined) {
        const peak = peakRssMb(server.child.pid);
        console.info(`peak RSS of the server after ${_what}: ${peak.toFixed(1)} MB`);
        expect(peak).toBeLessThan(200);
      }
    },
  );

  it("the ceiling is configurable with RESMON_MCP_MAX_BODY_BYTES", async () => {
    const listener = await listen();
    listeners.push(listener);
    listener.routes.set("/api/watchdog", streamed(200_000));
    const server = await started({
      RESMON_PORT: String(listener.port),
      RESMON_STATE_DIR: await stateFor(listener, "configured"),
      RESMON_MCP_MAX_BODY_BYTES: "65536",
    });
    const answer = await callTool(server, "get_watchdog_findings");
    expect(answer.body).toMatchObject({ error: "upstream_error", detail: { limit_bytes: 65_536 } });
    expect(String(answer.body.message)).toContain("65536 bytes");
  });

  it("an endless health answer during discovery is refused, with memory low", async () => {
    const listener = await listen();
    listeners.push(listener);
    listener.routes.set("/api/health", streamed(Number.POSITIVE_INFINITY));
    const server = await started({
      RESMON_PORT: String(listener.port),
      RESMON_STATE_DIR: await stateFor(listener, "endless-health"),
    });
    const answer = await callTool(server, "list_routines");
    expect(answer.body).toMatchObject({ error: "backend_unavailable", detail: { reason: "not_resmon" } });
    expect(String(answer.body.message)).toContain("ceiling of 16 MiB");
    if (isLinux && server.child.pid !== undefined) expect(peakRssMb(server.child.pid)).toBeLessThan(200);
  });

  it("a health answer that drips slower than RESMON_MCP_TIMEOUT_MS ends the call within timeout + 1 s", async () => {
    const listener = await listen();
    listeners.push(listener);
    listener.routes.set("/api/health", (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      const drip = setInterval(() => (res.destroyed ? clearInterval(drip) : res.write(" ")), 100);
    });
    const server = await started({
      RESMON_PORT: String(listener.port),
      RESMON_STATE_DIR: await stateFor(listener, "drip"),
      RESMON_MCP_TIMEOUT_MS: "800",
    });
    for (let i = 0; i < 2; i += 1) {
      const answer = await callTool(server, "list_routines");
      expect(answer.body).toMatchObject({
        error: "backend_unavailable",
        detail: { reason: "not_answering" },
      });
      expect(answer.ms).toBeLessThan(800 + 1_000);
    }
  });

  it("a slow probe and a slow request do not add up: the call that discovers ends within timeout + 1 s", async () => {
    const listener = await listen();
    listeners.push(listener);
    // Health answers just inside the timeout, then the tool's own route never answers.
    listener.routes.set("/api/health", (_req, res) => {
      setTimeout(() => json(res, 200, HEALTH), 1_700);
    });
    listener.routes.set("/api/routines", () => undefined);
    const server = await started({
      RESMON_PORT: String(listener.port),
      RESMON_STATE_DIR: await stateFor(listener, "slow-probe"),
      RESMON_MCP_TIMEOUT_MS: "2000",
    });
    const answer = await callTool(server, "list_routines");
    expect(answer.body).toMatchObject({ error: "backend_unavailable", detail: { timeout_ms: 2000 } });
    // Before the fix: probe + request, about 3.7 s.
    expect(answer.ms).toBeLessThan(2_000 + 1_000);
  });

  it("a 401 token_missing is said as token_missing, not as a restart", async () => {
    const listener = await listen();
    listeners.push(listener);
    listener.routes.set("/api/routines", (_req, res) =>
      json(res, 401, {
        detail: { reason: "token_missing", message: "This request needs resmon's local API token." },
      }),
    );
    const server = await started({
      RESMON_PORT: String(listener.port),
      RESMON_STATE_DIR: await stateFor(listener, "missing"),
    });
    const answer = await callTool(server, "list_routines");
    expect(answer.body).toMatchObject({
      error: "backend_unavailable",
      detail: { status: 401, reason: "token_missing" },
    });
    expect(String(answer.body.message)).toContain("token_missing");
    expect(String(answer.body.message)).not.toMatch(/restarted/);
  });

  it("RESMON_PORT with nothing listening and no state dir: resmon is not running, not 'set RESMON_STATE_DIR'", async () => {
    const listener = await listen();
    const port = listener.port;
    await listener.close();
    const server = await started({ RESMON_PORT: String(port), HOME: join(root, "empty-home") });
    const answer = await callTool(server, "list_routines");
    expect(answer.body).toMatchObject({
      error: "backend_unavailable",
      message: "resmon is not running. Start the resmon app and try again.",
      tried: [`http://127.0.0.1:${port}`],
      detail: { reason: "not_answering" },
    });
    expect(JSON.stringify(answer.body)).not.toContain("set RESMON_STATE_DIR");
  });
});

describe.skipIf(!HAVE_CLI || process.platform === "win32")(
  "the built server with port and token files that are not regular files",
  { timeout: 60_000 },
  () => {
    it("a FIFO as the token file: each call answers at once, the hang is not shared", async () => {
      const listener = await listen();
      listeners.push(listener);
      const state = join(root, "fifo-state");
      await mkdir(state, { recursive: true });
      execFileSync("mkfifo", [join(state, `api-token-${listener.port}`)]);
      const server = await started({ RESMON_PORT: String(listener.port), RESMON_STATE_DIR: state });
      for (let i = 0; i < 2; i += 1) {
        const answer = await callTool(server, "list_routines");
        expect(answer.body).toMatchObject({
          error: "backend_unavailable",
          detail: { reason: "unusable_token_file", file_problem: "fifo" },
        });
        expect(answer.ms).toBeLessThan(3_000);
      }
    });

    it.each([
      ["a FIFO", (p: string) => execFileSync("mkfifo", [p]), "fifo"],
      ["/dev/zero", () => undefined, "device"],
    ])("%s as the port file answers at once", async (_what, make, problem) => {
      const portFile = problem === "device" ? "/dev/zero" : join(root, `port-${problem}`);
      make(portFile);
      const server = await started({ RESMON_PORT_FILE: portFile });
      for (let i = 0; i < 2; i += 1) {
        const answer = await callTool(server, "list_routines");
        expect(answer.body).toMatchObject({
          error: "backend_unavailable",
          detail: { reason: "unusable_port_file", file_problem: problem },
        });
        expect(answer.ms).toBeLessThan(3_000);
      }
      if (isLinux && server.child.pid !== undefined) expect(peakRssMb(server.child.pid)).toBeLessThan(200);
    });
  },
);

describe("the scrubber knows the token the client sends", () => {
  it("a token file rewritten during discovery does not let the real token through", async () => {
    const listener = await listen();
    listeners.push(listener);
    // resmon's own text carrying the token: only the scrubber stands between it and the answer.
    listener.routes.set("/api/health", (_req, res) => json(res, 200, { ...HEALTH, version: listener.token }));
    const state = await stateFor(listener, "rewritten");
    const tokenFile = join(state, `api-token-${listener.port}`);
    const tools = createResmonTools({
      env: { RESMON_PORT: String(listener.port), RESMON_STATE_DIR: state },
      discoverFn: async (options) => {
        const found = await discover(options);
        // Another start of resmon rewrote the file between the client's read and any later one.
        await writeFile(tokenFile, `${newToken()}\n`);
        return found;
      },
    });
    try {
      const outcome = await tools.call("health", {});
      expect(outcome.ok).toBe(true);
      expect(JSON.stringify(outcome)).not.toContain(listener.token);
      expect(JSON.stringify(outcome)).toContain("<redacted>");
    } finally {
      await tools.close();
    }
  });
});
