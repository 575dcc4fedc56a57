/**
 * The built server against a hostile or broken backend (issue 15): answers past the body ceiling,
 * port and token files that are not small regular files, a dead named port with no state dir, a 401
 * worded by what resmon said. Each through `node dist/resmon-mcp.cjs` over stdio, as a harness runs it;
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
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { runDoctor } from "../src/bin/doctor.js";
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

/** A JSON string of `total` bytes (Infinity: endless), sent chunked, as fast as the socket takes it. */
function streamed(total: number): Route {
  return (_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    // One endless string: the byte ceiling, not the value cap, is what stops it.
    const chunk = Buffer.from("x".repeat(65_536));
    res.write('"');
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

/** A server warmed up; stopped by afterEach, or by `cleanup` (a concurrent test's own) when given. */
async function started(
  env: Record<string, string>,
  cleanup?: (stop: () => Promise<void>) => void,
): Promise<RawServer> {
  const server = new RawServer(cleanEnv(env));
  if (cleanup) cleanup(() => server.stop());
  else servers.push(server);
  await server.initialize();
  // A first call also waits while the SDK path loads, and its deadline counts from when it was sent:
  // a call to no tool loads it without reaching resmon, so the timings below measure resmon's part.
  const warm = await callTool(server, "no_such_tool");
  if (warm.body.error !== "invalid_argument") throw new Error("the warm-up call was not refused");
  return server;
}

let nextId = 1;
async function callTool(server: RawServer, name: string, args: Record<string, unknown> = {}) {
  const begun = Date.now();
  const frame = await server.request(nextId++, "tools/call", { name, arguments: args });
  const result = frame.result as { isError?: boolean; content: { text: string }[] };
  const at = Date.now();
  return {
    ms: at - begun,
    /** When the answer came (epoch ms), to order it against when a request reached the listener. */
    at,
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
      expect(answer.body).toMatchObject({ error: "upstream_error", detail: { limit_bytes: 6 * MiB } });
      expect(String(answer.body.message)).toContain("6 MiB");
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
    expect(String(answer.body.message)).toContain("ceiling of 6 MiB");
    if (isLinux && server.child.pid !== undefined) expect(peakRssMb(server.child.pid)).toBeLessThan(200);
  });

  it("a health answer that drips without end is cut by RESMON_MCP_TIMEOUT_MS, call after call", async () => {
    const listener = await listen();
    listeners.push(listener);
    let asked = 0;
    listener.routes.set("/api/health", (_req, res) => {
      asked += 1;
      res.writeHead(200, { "content-type": "application/json" });
      const drip = setInterval(() => (res.destroyed ? clearInterval(drip) : res.write(" ")), 100);
    });
    const TIMEOUT = 3_000;
    const server = await started({
      RESMON_PORT: String(listener.port),
      RESMON_STATE_DIR: await stateFor(listener, "drip"),
      RESMON_MCP_TIMEOUT_MS: String(TIMEOUT),
    });
    for (let i = 0; i < 2; i += 1) {
      const answer = await callTool(server, "list_routines");
      // Cut by the probe's timeout (not_answering) or, on a loaded machine, by the call's deadline.
      expect(answer.body).toMatchObject({ error: "backend_unavailable" });
      // The drip never ends: an uncut call never answers. The margin is for a loaded machine.
      expect(answer.ms).toBeLessThan(TIMEOUT + 10_000);
    }
    expect(asked).toBeGreaterThan(0);
  });

  it("a slow probe and a slow request do not add up: the request gets what the probe left", async () => {
    const listener = await listen();
    listeners.push(listener);
    // The probe's own timeout is resmon's 3 s: the probe answers inside it, with a second to spare.
    // TIMEOUT leaves a loaded machine room to find resmon and send the request after it.
    const TIMEOUT = 6_000;
    const PROBE_MS = 2_000;
    // Until the server's own start-up request is done (the start-up probe), health refuses, so
    // nothing is found and kept: the call below finds resmon itself.
    let slow = false;
    // Then health answers slowly, and the tool's own route never answers.
    listener.routes.set("/api/health", (_req, res) => {
      if (!slow) return json(res, 503, { detail: "starting" });
      setTimeout(() => json(res, 200, HEALTH), PROBE_MS);
    });
    let requestAt = 0;
    listener.routes.set("/api/routines", () => {
      requestAt = Date.now();
    });
    const server = await started({
      RESMON_PORT: String(listener.port),
      RESMON_STATE_DIR: await stateFor(listener, "slow-probe"),
      RESMON_MCP_TIMEOUT_MS: String(TIMEOUT),
    });
    await server.probed();
    slow = true;
    const answer = await callTool(server, "list_routines");
    expect(answer.body).toMatchObject({ error: "backend_unavailable", detail: { timeout_ms: TIMEOUT } });
    expect(requestAt).toBeGreaterThan(0);
    // An ordering, not a wall-clock bound: a request with a timeout of its own would be answered a
    // whole TIMEOUT after it reached resmon; sharing the call's deadline, about TIMEOUT - PROBE_MS
    // (less on a loaded machine, where the probe's start came later). Halfway between the two.
    expect(answer.at - requestAt).toBeLessThan(TIMEOUT - PROBE_MS / 2);
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

/** A fixed answer, sent with its Content-Length, optionally after a delay. */
function fixed(type: string, body: Buffer | string, delayMs = 0): Route {
  const bytes = typeof body === "string" ? Buffer.from(body) : body;
  return (req, res) => {
    req.resume();
    setTimeout(() => {
      if (res.destroyed) return;
      res.writeHead(200, { "content-type": type, "content-length": bytes.length });
      res.end(bytes);
    }, delayMs);
  };
}

const EXECUTION = JSON.stringify({ id: 1, status: "completed" });
/** `{"a":[{},{},…]}` holding `values` JSON values in all (the object, its key, the array, n objects). */
const denseObjects = (values: number) =>
  `{"a":[${Array(values - 3)
    .fill("{}")
    .join(",")}]}`;
const row = '{"id":1,"title":"t"}'; // five values

describe.skipIf(!HAVE_CLI)(
  "the built server's memory on the largest answers it takes",
  { timeout: 60_000 },
  () => {
    const MAX_VALUES = 250_000;
    // Each answer just under a limit: it is taken, passed on whole, and the server stays under 200 MB.
    it.each([
      // Weight 1 per byte: a text export of plain characters up to the 6 MiB ceiling.
      ["a long text export", "export_references", "application/x-bibtex", () => "x".repeat(6 * MiB - 64)],
      // Escaped quotes weigh 4 per pair (each byte, and again once escaped in the text block).
      [
        "a JSON string of escapes",
        "export_references",
        "application/json",
        () => `"${'\\"'.repeat((3 * MiB) / 2 - 64)}"`,
      ],
      ["dense empty objects", "get_analytics", "application/json", () => denseObjects(MAX_VALUES - 10)],
      [
        "many valid rows",
        "get_execution_results",
        "application/json",
        () =>
          `[${Array(Math.floor((MAX_VALUES - 10) / 5))
            .fill(row)
            .join(",")}]`,
      ],
    ])("%s is passed on under 200 MB RSS", async (what, tool, type, body) => {
      const listener = await listen();
      listeners.push(listener);
      listener.routes.set("/api/executions/1", fixed("application/json", EXECUTION));
      listener.routes.set("/api/export/references", fixed(type, body()));
      listener.routes.set("/api/analytics/overview", fixed(type, body()));
      listener.routes.set("/api/executions/1/references", fixed(type, body()));
      const server = await started({
        RESMON_PORT: String(listener.port),
        RESMON_STATE_DIR: await stateFor(listener, `under-${tool}-${what.length}`),
      });
      const args =
        tool === "get_analytics"
          ? { view: "overview" }
          : tool === "export_references"
            ? { exec_id: 1, format: "bibtex" }
            : { exec_id: 1 };
      const answer = await callTool(server, tool, args);
      expect(answer.isError, JSON.stringify(answer.body).slice(0, 300)).toBe(false);
      if (isLinux && server.child.pid !== undefined) {
        const peak = peakRssMb(server.child.pid);
        console.info(`peak RSS of the server passing on ${what}: ${peak.toFixed(1)} MB`);
        expect(peak).toBeLessThan(200);
      }
    });

    // Before the value cap and the 6 MiB ceiling both were taken: 11 MB of {} peaked at 567 MB, 16 MB of text at 257 MB.
    it.each([
      [
        "4.5 MB of {}",
        "application/json",
        () => denseObjects(1_500_000),
        { limit_json_values: MAX_VALUES },
        "250000 JSON values",
      ],
      [
        "a 16 MB text export",
        "application/x-bibtex",
        () => "x".repeat(16 * MiB - 64),
        { limit_bytes: 6 * MiB },
        "6 MiB",
      ],
    ])(
      "%s is upstream_error naming the limit, memory stays low, the next call works",
      async (_what, type, body, detail, named) => {
        const listener = await listen();
        listeners.push(listener);
        listener.routes.set("/api/executions/1", fixed("application/json", EXECUTION));
        listener.routes.set("/api/export/references", fixed(type, body()));
        const server = await started({
          RESMON_PORT: String(listener.port),
          RESMON_STATE_DIR: await stateFor(listener, `over-${named.length}`),
        });
        const answer = await callTool(server, "export_references", { exec_id: 1, format: "bibtex" });
        expect(answer.body).toMatchObject({ error: "upstream_error", detail });
        expect(String(answer.body.message)).toContain(named);
        expect(String(answer.body.message)).not.toContain("Ask for a smaller page");
        const next = await callTool(server, "list_routines");
        expect(next).toMatchObject({ isError: false, body: { routines: [] } });
        if (isLinux && server.child.pid !== undefined) expect(peakRssMb(server.child.pid)).toBeLessThan(200);
      },
    );
  },
);

describe.skipIf(!HAVE_CLI)(
  "one deadline per tool call, whatever number of requests it makes",
  { timeout: 60_000, concurrent: true },
  () => {
    // The earlier requests take a third of TIMEOUT or more: the one that comes after them shares what
    // is left. Compared by ordering: the answer against when the last request reached resmon, halfway
    // between the two designs. The earlier steps leave 5 s or more of TIMEOUT for a loaded machine to
    // find resmon and send the last request (at TIMEOUT 6 s, a 4 s GET left too little at a load of 22
    // with six busy loops beside the test: the second GET was never sent).
    const TIMEOUT = 12_000;
    const STORAGE = JSON.stringify({
      pdf_policy: "",
      txt_policy: "",
      archive_after_days: "",
      export_directory: "",
    });

    // The three cases only wait (about TIMEOUT each) and share nothing: they run at once, each
    // stopping its own listener and server (afterEach would stop the others'), issue 43.
    type Finished = (fn: () => Promise<void>) => void;
    async function serverFor(listener: Listener, name: string, onFinished: Finished): Promise<RawServer> {
      return started(
        {
          RESMON_PORT: String(listener.port),
          RESMON_STATE_DIR: await stateFor(listener, name),
          RESMON_MCP_TIMEOUT_MS: String(TIMEOUT),
        },
        onFinished,
      );
    }

    it("update_settings (GET, PUT, GET): the read-back gets what is left, and a cut one says the write was sent", async ({
      onTestFinished,
    }) => {
      const listener = await listen();
      onTestFinished(() => listener.close());
      let reads = 0;
      let readBackAt = 0;
      listener.routes.set("/api/settings/storage", (req, res) => {
        if (req.method === "PUT") return fixed("application/json", STORAGE, 2_000)(req, res);
        reads += 1;
        if (reads > 1) readBackAt = Date.now();
        // The first read and the write are each slow but answer (with half the timeout left for a
        // loaded machine); the read-back would take far longer than all.
        return fixed("application/json", STORAGE, reads === 1 ? 2_000 : 60_000)(req, res);
      });
      const server = await serverFor(listener, "deadline-settings", onTestFinished);
      const answer = await callTool(server, "update_settings", {
        group: "storage",
        settings: { pdf_policy: "keep" },
      });
      expect(readBackAt).toBeGreaterThan(0);
      // A read-back with a whole timeout of its own answers TIMEOUT after it arrived; with what the
      // GET and PUT left, about TIMEOUT - 4 s.
      expect(answer.at - readBackAt).toBeLessThan(TIMEOUT - 2_000);
      expect(answer.body).toMatchObject({
        error: "backend_unavailable",
        detail: { written: true, after: "not_reported", timeout_ms: TIMEOUT },
      });
      expect(String(answer.body.message)).toContain("accepted the write");
    });

    it("create_routine (POST, then GET) whose read-back runs out of time says the routine was created", async ({
      onTestFinished,
    }) => {
      const listener = await listen();
      onTestFinished(() => listener.close());
      listener.routes.set("/api/routines", (req, res) =>
        fixed("application/json", JSON.stringify({ id: 7, name: "r", is_active: false }), 4_000)(req, res),
      );
      let readBackAt = 0;
      const readBack = fixed("application/json", "{}", 60_000);
      listener.routes.set("/api/routines/7", (req, res) => {
        readBackAt = Date.now();
        readBack(req, res);
      });
      const server = await serverFor(listener, "deadline-routine", onTestFinished);
      const answer = await callTool(server, "create_routine", {
        name: "r",
        keywords: ["k"],
        sources: ["arxiv"],
        schedule: "0 7 * * 1",
      });
      expect(readBackAt).toBeGreaterThan(0);
      // A read-back with a whole timeout of its own answers TIMEOUT after it arrived; with what the
      // POST left, about TIMEOUT - 4 s.
      expect(answer.at - readBackAt).toBeLessThan(TIMEOUT - 2_000);
      expect(answer.body).toMatchObject({ routine: { id: 7 }, read_back: false });
    });

    it("get_watch_profile's two slow GETs do not add up", async ({ onTestFinished }) => {
      const listener = await listen();
      onTestFinished(() => listener.close());
      listener.routes.set(
        "/api/profiles/3",
        fixed("application/json", JSON.stringify({ id: 3, kind: "person" }), 7_000),
      );
      let secondAt = 0;
      const matches = fixed("application/json", JSON.stringify({ total: 0, by_basis: {} }), 7_000);
      listener.routes.set("/api/profiles/3/matches", (req, res) => {
        secondAt = Date.now();
        matches(req, res);
      });
      const server = await serverFor(listener, "deadline-profile", onTestFinished);
      const answer = await callTool(server, "get_watch_profile", { profile_id: 3 });
      // Each GET fits in TIMEOUT, both do not: with a timeout per request both answer (about 14 s) and
      // the call succeeds; with one deadline the second is cut, about TIMEOUT - 7 s after it arrived.
      expect(answer.body).toMatchObject({ error: "backend_unavailable", detail: { timeout_ms: TIMEOUT } });
      expect(secondAt).toBeGreaterThan(0);
      expect(answer.at - secondAt).toBeLessThan(TIMEOUT - 3_500);
    });
  },
);

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
      const server = await started({
        RESMON_PORT: String(listener.port),
        RESMON_STATE_DIR: state,
        RESMON_MCP_TIMEOUT_MS: "30000",
      });
      for (let i = 0; i < 2; i += 1) {
        const answer = await callTool(server, "list_routines");
        // "fifo" comes only from fstat before any read; a read that waited would say "timeout".
        expect(answer.body).toMatchObject({
          error: "backend_unavailable",
          detail: { reason: "unusable_token_file", file_problem: "fifo" },
        });
        // A read blocked on the FIFO would hold the call to its 30 s deadline.
        expect(answer.ms).toBeLessThan(15_000);
      }
    });

    it.each([
      ["a FIFO", (p: string) => execFileSync("mkfifo", [p]), "fifo"],
      ["/dev/zero", () => undefined, "device"],
    ])("%s as the port file answers at once", async (_what, make, problem) => {
      const portFile = problem === "device" ? "/dev/zero" : join(root, `port-${problem}`);
      make(portFile);
      const server = await started({ RESMON_PORT_FILE: portFile, RESMON_MCP_TIMEOUT_MS: "30000" });
      for (let i = 0; i < 2; i += 1) {
        const answer = await callTool(server, "list_routines");
        // Named by fstat before any read ("timeout" or "too_large" had it been read).
        expect(answer.body).toMatchObject({
          error: "backend_unavailable",
          detail: { reason: "unusable_port_file", file_problem: problem },
        });
        // A blocked read would hold the call to its 30 s deadline.
        expect(answer.ms).toBeLessThan(15_000);
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

/** resmon's text carrying what a terminal or a log reader obeys: a forged line, ESC, BEL, OSC 52 (the clipboard), ESC[2J, a C1 CSI. */
const FORGED_VERSION =
  "1.8.3\n[resmon-mcp] start-up check: resmon answered at http://127.0.0.1:1; tool calls will reach it.\u001b]52;c;aGVsbG8=\u0007\u001b[2J\u009b31m";
/** Any C0 or C1 control character, or DEL. */
// biome-ignore lint/complexity/useRegexLiterals: as a literal it is refused (noControlCharactersInRegex), and `pnpm format` made it one.
const CONTROL = new RegExp("[\\u0000-\\u001f\\u007f-\\u009f]");

describe("nothing hostile passed on: control characters from resmon (issue 34 point 5)", {
  timeout: 60_000,
}, () => {
  it.skipIf(!HAVE_CLI)(
    "a health version forging a start-up line: one start-up line, no control character on stderr",
    async () => {
      const listener = await listen();
      listeners.push(listener);
      listener.routes.set("/api/health", (_req, res) =>
        json(res, 200, { ...HEALTH, version: FORGED_VERSION }),
      );
      const server = await started({
        RESMON_PORT: String(listener.port),
        RESMON_STATE_DIR: await stateFor(listener, "forged"),
      });
      await server.probed();
      const lines = server.stderr.split("\n").filter((l) => l.length > 0);
      expect(lines.filter((l) => l.includes("start-up check:"))).toHaveLength(1);
      expect(lines.every((l) => !CONTROL.test(l))).toBe(true);
      expect(server.stderr).toContain("\\u001b]52;c;");
    },
  );

  it.skipIf(!HAVE_CLI)(
    "the unguarded refusal (no token needed) echoes such a version with no control character",
    async () => {
      const server: Server = createServer((_req, res) =>
        json(res, 200, {
          status: "ok",
          pid: 1,
          started_at: "2026-01-01T00:00:00",
          version: "1.7\u001b[2J\u0007",
        }),
      );
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const port = (server.address() as AddressInfo).port;
      try {
        const state = join(root, "unguarded-controls");
        await mkdir(state, { recursive: true });
        const raw = await started({ RESMON_PORT: String(port), RESMON_STATE_DIR: state });
        const answer = await callTool(raw, "list_routines");
        expect(answer.body).toMatchObject({
          error: "backend_unavailable",
          detail: { reason: "unguarded_resmon" },
        });
        expect(String(answer.body.message)).toContain("resmon 1.7\\u001b[2J\\u0007 answers at");
        expect(CONTROL.test(JSON.stringify(answer.body).replace(/\\u00[01][0-9a-f]/g, ""))).toBe(false);
        expect(CONTROL.test(String(answer.body.message))).toBe(false);
        await raw.probed();
        expect(raw.stderr.split("\n").every((l) => !CONTROL.test(l))).toBe(true);
      } finally {
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  );

  it("doctor prints no control character: not ESC, BEL, OSC 52 or ESC[2J from a health version or an embeddings reason", async () => {
    const listener = await listen();
    listeners.push(listener);
    listener.routes.set("/api/health", (_req, res) =>
      json(res, 200, {
        ...HEALTH,
        version: FORGED_VERSION,
        embeddings: { extension: null, reason: "off\u001b]52;c;aGVsbG8=\u0007" },
      }),
    );
    const lines: string[] = [];
    await runDoctor({
      env: {
        RESMON_PORT: String(listener.port),
        RESMON_STATE_DIR: await stateFor(listener, "doctor-controls"),
      },
      write: (line) => lines.push(line),
    });
    expect(lines.join("\n")).toContain("1.8.3\\u000a[resmon-mcp]");
    expect(lines.filter((l) => CONTROL.test(l))).toEqual([]);
  });

  it("an error message echoing resmon's text carries no control character", async () => {
    const listener = await listen();
    listeners.push(listener);
    listener.routes.set("/api/routines", (_req, res) =>
      json(res, 400, { detail: "bad\u001b[2J\u0007 request\u009b" }),
    );
    const tools = createResmonTools({
      env: {
        RESMON_PORT: String(listener.port),
        RESMON_STATE_DIR: await stateFor(listener, "message-controls"),
      },
    });
    try {
      const outcome = await tools.call("list_routines", {});
      expect(outcome.ok).toBe(false);
      const text = JSON.stringify(outcome);
      expect(text).toContain("bad\\\\u001b[2J");
      expect(CONTROL.test(text.replace(/\\u00[01][0-9a-f]/g, ""))).toBe(false);
      expect(/[\u0080-\u009f]/.test(text)).toBe(false);
    } finally {
      await tools.close();
    }
  });
});

describe.skipIf(!HAVE_CLI)(
  "attached only to a resmon that checks its token (issues 34 point 4 and 41 point 4)",
  { timeout: 60_000 },
  () => {
    it.each([
      ["answering 200 to anything", false],
      ["refusing only a missing token (401 token_missing) and taking any bearer", true],
    ])(
      "a stale token file beside another process %s: refused by name, nothing forged served",
      async (_w, refusesNoToken) => {
        // A crash left api-token-<port>; another process now holds the port.
        const token = newToken();
        const forged: string[] = [];
        const impostor: Server = createServer((req, res) => {
          forged.push(String(req.headers.authorization));
          if (refusesNoToken && req.headers.authorization === undefined) {
            json(res, 401, {
              detail: { reason: "token_missing", message: "This request needs resmon's local API token." },
            });
            return;
          }
          const path = (req.url ?? "").split("?")[0];
          if (path === "/api/routines")
            json(res, 200, [{ id: 1, name: "forged", parameters: "{}", schedule_cron: "* * * * *" }]);
          else json(res, 200, HEALTH);
        });
        await new Promise<void>((resolve) => impostor.listen(0, "127.0.0.1", resolve));
        const port = (impostor.address() as AddressInfo).port;
        try {
          const state = join(root, `impostor-${refusesNoToken}`);
          await mkdir(state, { recursive: true });
          await writeFile(join(state, `api-token-${port}`), `${token}\n`, { mode: 0o600 });
          const server = await started({ RESMON_PORT: String(port), RESMON_STATE_DIR: state });
          const answer = await callTool(server, "list_routines");
          expect(answer.body).toMatchObject({
            error: "backend_unavailable",
            detail: { reason: "not_resmon", port },
          });
          expect(String(answer.body.message)).toContain(
            "when asked with a random wrong token, where resmon refuses with 401 token_invalid",
          );
          expect(JSON.stringify(answer.body)).not.toContain("forged");
          const line = await server.probed();
          expect(line).not.toContain("tool calls will reach it");
          expect(line).toContain("(not_resmon)");
          // No request ever carried the token: only the probe's random wrong one.
          expect(forged.length).toBeGreaterThan(0);
          expect(forged.every((a) => /^Bearer [A-Za-z0-9_-]{43}$/.test(a) && !a.includes(token))).toBe(true);
        } finally {
          await new Promise<void>((resolve) => impostor.close(() => resolve()));
        }
      },
    );
  },
);

describe("the route list read with its own deadline and size bound (issue 34 point 6)", {
  timeout: 60_000,
}, () => {
  async function toolsFor(listener: Listener, name: string) {
    return createResmonTools({
      env: { RESMON_PORT: String(listener.port), RESMON_STATE_DIR: await stateFor(listener, name) },
      timeoutMs: 12_000,
    });
  }

  it("a route list dripping 1 byte / 100 ms costs a call its own short deadline, not the call's timeout", async () => {
    const listener = await listen();
    listeners.push(listener);
    listener.routes.set("/openapi.json", (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      const drip = setInterval(() => (res.destroyed ? clearInterval(drip) : res.write(" ")), 100);
    });
    const tools = await toolsFor(listener, "drip-openapi");
    try {
      const begun = Date.now();
      const outcome = await tools.call("list_routines", {});
      expect(outcome).toMatchObject({ ok: true, answer: { routines: [] } });
      // The route list's 3 s, never the call's 12 s (before: backend_unavailable after 12 s).
      expect(Date.now() - begun).toBeLessThan(8_000);
    } finally {
      await tools.close();
    }
  });

  it("a transient 500 on the route list is not kept as the answer: asked again a while later, then kept", async () => {
    const listener = await listen();
    listeners.push(listener);
    let asked = 0;
    listener.routes.set("/openapi.json", (_req, res) => {
      asked += 1;
      if (asked === 1) json(res, 500, { detail: "Internal Server Error" });
      else
        json(res, 200, {
          openapi: "3.1.0",
          paths: { "/api/routines": { get: {} }, "/api/health": { get: {} } },
        });
    });
    const tools = await toolsFor(listener, "500-openapi");
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      expect(await tools.call("list_routines", {})).toMatchObject({ ok: true });
      expect(await tools.call("list_routines", {})).toMatchObject({ ok: true });
      expect(asked).toBe(1);
      vi.setSystemTime(Date.now() + 11_000);
      expect(await tools.call("list_routines", {})).toMatchObject({ ok: true });
      expect(asked).toBe(2);
      // Read this time: kept for this runtime id, however long after.
      vi.setSystemTime(Date.now() + 60_000);
      expect(await tools.call("list_routines", {})).toMatchObject({ ok: true });
      expect(asked).toBe(2);
    } finally {
      vi.useRealTimers();
      await tools.close();
    }
  });

  it("a route list past its own 2 MiB ceiling is cut there (not at 6 MiB) and the call goes on", async () => {
    const listener = await listen();
    listeners.push(listener);
    let sent = 0;
    listener.routes.set("/openapi.json", (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      const chunk = Buffer.from("x".repeat(65_536));
      const pump = () => {
        while (!res.destroyed && sent < 64 * MiB) {
          sent += chunk.length;
          if (!res.write(chunk)) {
            res.once("drain", pump);
            return;
          }
        }
      };
      res.write('"');
      pump();
    });
    const tools = await toolsFor(listener, "huge-openapi");
    try {
      expect(await tools.call("list_routines", {})).toMatchObject({ ok: true, answer: { routines: [] } });
      await expect.poll(() => listener.closedSockets, { timeout: 3_000 }).toBeGreaterThan(0);
      // What the socket buffers past the cut is small beside the 6 MiB an answer may hold.
      expect(sent).toBeLessThan(5 * MiB);
    } finally {
      await tools.close();
    }
  });
});
