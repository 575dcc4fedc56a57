/**
 * A hostile or broken backend and hostile state files (issue 15): answers past the body ceiling,
 * port and token files that are not small regular files, a 401 worded by what resmon said, and the
 * token handed to a scrubber being the one the client sends.
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  createResmonClient,
  DEFAULT_MAX_JSON_VALUES,
  type Discovery,
  type DiscoveryRefusal,
  discover,
} from "../src/index.js";
import { describeBytes } from "../src/transport.js";
import { startFakeResmon } from "./helpers/fake-resmon.js";
import { deadPort, HEALTH_BODY, type LoopbackServer, startServer, TOKEN } from "./helpers/loopback-server.js";

let root = "";
const servers: LoopbackServer[] = [];
const discoveries: Discovery[] = [];

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "resmon-hostile-"));
});
afterEach(async () => {
  await Promise.all(discoveries.splice(0).map((d) => (d.ok ? d.client.close() : undefined)));
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await rm(root, { recursive: true, force: true });
});

async function serve(handler: Parameters<typeof startServer>[0]): Promise<LoopbackServer> {
  const server = await startServer(handler);
  servers.push(server);
  return server;
}

/** Writes JSON-looking bytes for as long as the socket stays open; counts when the socket closed. */
function endless(res: ServerResponse, closed: { at?: number }): void {
  res.writeHead(200, { "content-type": "application/json" });
  res.write('{"findings": [');
  const chunk = `${'"x",'.repeat(16_384)}`;
  const pump = () => {
    while (!res.destroyed && res.write(chunk)) {
      /* fill the buffer */
    }
    if (!res.destroyed) res.once("drain", pump);
  };
  res.socket?.once("close", () => {
    closed.at = Date.now();
  });
  pump();
}

async function run(env: Record<string, string>, extra: Parameters<typeof discover>[0] = {}) {
  const found = await discover({
    env,
    // Real files: this platform's paths (path.posix cannot resolve a C:\ path).
    platform: process.platform,
    homedir: join(root, "home"),
    probeTimeoutMs: 1_000,
    ...extra,
  });
  discoveries.push(found);
  return found;
}

function refusalOf(found: Discovery): DiscoveryRefusal {
  if (found.ok) throw new Error(`expected a refusal, discovered ${found.baseUrl}`);
  return found.refusal;
}

describe("the body ceiling", () => {
  it("an endless body is too_large naming the ceiling, the socket is destroyed, and the next call works", async () => {
    const closed: { at?: number } = {};
    let calls = 0;
    const server = await serve((_req, res) => {
      calls += 1;
      if (calls === 1) endless(res, closed);
      else res.end('{"ok": true}');
    });
    const client = createResmonClient({ port: server.port, token: TOKEN, maxBodyBytes: 1024 * 1024 });
    try {
      const started = Date.now();
      const answer = await client.GET("/api/watchdog" as never);
      expect(answer.ok).toBe(false);
      if (answer.ok) return;
      expect(answer.error).toMatchObject({ kind: "too_large", limitBytes: 1024 * 1024 });
      expect(answer.error.message).toContain("1 MiB");
      // The body never ends: only the ceiling ends the call. A wide margin for a loaded machine.
      expect(Date.now() - started).toBeLessThan(15_000);
      await expect.poll(() => closed.at, { timeout: 2_000 }).toBeDefined();
      const next = await client.GET("/api/watchdog" as never);
      expect(next).toMatchObject({ ok: true, data: { ok: true } });
    } finally {
      await client.close();
    }
  });

  it("a declared Content-Length over the ceiling is refused before the body is read", async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": String(100 * 1024 * 1024) });
      res.write("[");
      // Never sends the rest: a client that waited for it would hit its total timeout instead.
    });
    const client = createResmonClient({ port: server.port, token: TOKEN, timeoutMs: 20_000 });
    try {
      const started = Date.now();
      const answer = await client.GET("/api/watchdog" as never);
      expect(answer).toMatchObject({ ok: false, error: { kind: "too_large", limitBytes: 6 * 1024 * 1024 } });
      // Half the 20 s total timeout a client that waited for the body would hit.
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await client.close();
    }
  });

  it("an answer at the ceiling exactly is read", async () => {
    // Its weight: 998 bytes, plus one for each of its two quotes (each is escaped in the text block).
    const body = JSON.stringify("y".repeat(1000 - 4));
    const server = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(body);
    });
    const client = createResmonClient({ port: server.port, token: TOKEN, maxBodyBytes: 1000 });
    try {
      expect(await client.GET("/api/watchdog" as never)).toMatchObject({ ok: true });
    } finally {
      await client.close();
    }
  });

  it("a dense JSON answer under the byte ceiling is too_large by its value count, and the next call works", async () => {
    let calls = 0;
    const server = await serve((_req, res) => {
      calls += 1;
      res.writeHead(200, { "content-type": "application/json" });
      // 400k empty objects, 1.2 MB: far under 6 MiB, far over the cap of 250k values.
      res.end(calls === 1 ? `[${Array(400_000).fill("{}").join(",")}]` : "[{}]");
    });
    const client = createResmonClient({ port: server.port, token: TOKEN });
    try {
      const answer = await client.GET("/api/watchdog" as never);
      expect(answer).toMatchObject({
        ok: false,
        error: { kind: "too_large", limit: "json_values", limitJsonValues: DEFAULT_MAX_JSON_VALUES },
      });
      expect(DEFAULT_MAX_JSON_VALUES).toBe(250_000);
      expect(await client.GET("/api/watchdog" as never)).toMatchObject({ ok: true, data: [{}] });
    } finally {
      await client.close();
    }
  });

  it("a text export counts as the JSON it becomes: control characters weigh seven bytes", async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/x-bibtex" });
      res.end("\u0001".repeat(200));
    });
    const client = createResmonClient({ port: server.port, token: TOKEN, maxBodyBytes: 1000 });
    try {
      expect(await client.GET("/api/watchdog" as never)).toMatchObject({
        ok: false,
        error: { kind: "too_large", limit: "bytes", limitBytes: 1000 },
      });
    } finally {
      await client.close();
    }
  });

  it("the discovery probe has the ceiling too", async () => {
    const closed: { at?: number } = {};
    const server = await serve((_req, res) => endless(res, closed));
    const state = join(root, "state");
    await mkdir(state, { recursive: true });
    await writeFile(join(state, `api-token-${server.port}`), TOKEN);
    const refusal = refusalOf(
      await run(
        { RESMON_PORT: String(server.port), RESMON_STATE_DIR: state },
        { maxBodyBytes: 65_536, probeTimeoutMs: 10_000 },
      ),
    );
    expect(refusal.kind).toBe("not_resmon");
    expect(refusal.message).toContain("ceiling of 65536 bytes");
  });

  it("describes a ceiling in MiB when it is whole", () => {
    expect(describeBytes(16 * 1024 * 1024)).toBe("16 MiB");
    expect(describeBytes(1000)).toBe("1000 bytes");
  });
});

describe.skipIf(process.platform === "win32")("port and token files that are not small regular files", () => {
  const fifo = (path: string) => execFileSync("mkfifo", [path]);

  it.each([
    ["a FIFO nobody writes", "fifo", (p: string) => fifo(p)],
    ["a directory", "directory", (p: string) => mkdir(p)],
    ["/dev/zero", "device", (p: string) => symlink("/dev/zero", p)],
    ["a huge file", "too_large", (p: string) => writeFile(p, "1".repeat(10_000))],
  ])("a port file that is %s is unusable_port_file, at once", async (_what, problem, make) => {
    const portFile = join(root, "resmon.port");
    await make(portFile);
    const started = Date.now();
    const refusal = refusalOf(await run({ RESMON_PORT_FILE: portFile }));
    // fileProblem comes from fstat before any read: a read that waited would say "timeout" after the
    // 5 s read budget, and /dev/zero read would say "too_large". The bound is a hang guard.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(refusal).toMatchObject({ kind: "unusable_port_file", fileProblem: problem, tried: [] });
    expect(refusal.message).toContain(portFile);
  });

  it.each([
    ["a FIFO nobody writes", "fifo", (p: string) => fifo(p)],
    ["a directory", "directory", (p: string) => mkdir(p)],
    ["/dev/zero", "device", (p: string) => symlink("/dev/zero", p)],
  ])("a token file that is %s is unusable_token_file, at once", async (_what, problem, make) => {
    const live = await startFakeResmon(TOKEN);
    servers.push(live);
    const state = join(root, "state");
    await mkdir(state, { recursive: true });
    await make(join(state, `api-token-${live.port}`));
    const started = Date.now();
    const refusal = refusalOf(await run({ RESMON_PORT: String(live.port), RESMON_STATE_DIR: state }));
    // fileProblem comes from fstat before any read: a read that waited would say "timeout" after the
    // 5 s read budget, and /dev/zero read would say "too_large". The bound is a hang guard.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(refusal).toMatchObject({ kind: "unusable_token_file", fileProblem: problem, tried: [] });
    expect(live.received).toHaveLength(0);
  });

  it("RESMON_PORT_FILE=/dev/zero is refused at once", async () => {
    const refusal = refusalOf(await run({ RESMON_PORT_FILE: "/dev/zero" }));
    expect(refusal).toMatchObject({ kind: "unusable_port_file", fileProblem: "device" });
  });
});

describe("a named port with no token file", () => {
  it("nothing listening is not_answering with the spec's sentence, not a state-directory problem", async () => {
    const port = await deadPort();
    const refusal = refusalOf(
      await run({ RESMON_PORT: String(port), RESMON_STATE_DIR: join(root, "nowhere") }),
    );
    expect(refusal).toMatchObject({ kind: "not_answering", tried: [`http://127.0.0.1:${port}`] });
    expect(refusal.message).toMatch(/^resmon is not running\. Start the resmon app and try again\./);
  });
});

describe("a 401 says what resmon said", () => {
  async function refusedWith(handler: Parameters<typeof startServer>[0]) {
    const server = await serve(handler);
    const state = join(root, "state");
    await mkdir(state, { recursive: true });
    await writeFile(join(state, `api-token-${server.port}`), TOKEN);
    return refusalOf(await run({ RESMON_PORT: String(server.port), RESMON_STATE_DIR: state }));
  }
  // A random wrong token gets resmon's own 401 token_invalid (the guard check before the probe);
  // the case's 401 answers the token from the file.
  const answer401 = (reason?: string) => (req: IncomingMessage, res: ServerResponse) => {
    const wrong = req.headers.authorization !== undefined && req.headers.authorization !== `Bearer ${TOKEN}`;
    res.writeHead(401, { "content-type": "application/json" });
    if (wrong) return res.end(JSON.stringify({ detail: { reason: "token_invalid", message: "no" } }));
    res.end(JSON.stringify({ detail: reason ? { reason, message: "no" } : "no" }));
  };

  it("token_missing does not claim a stale token or a restart", async () => {
    const refusal = await refusedWith(answer401("token_missing"));
    expect(refusal.kind).toBe("token_refused");
    expect(refusal.message).toContain("token_missing");
    expect(refusal.message).not.toMatch(/earlier run|restart/);
  });

  it("token_invalid says the token is stale", async () => {
    const refusal = await refusedWith(answer401("token_invalid"));
    expect(refusal.message).toContain("token_invalid");
    expect(refusal.message).toMatch(/earlier run/);
  });

  it("no reason says so", async () => {
    const refusal = await refusedWith(answer401());
    expect(refusal.message).toContain("did not say why");
  });
});

describe("onToken", () => {
  it("is handed the token the client sends, before it sends it", async () => {
    const live = await startFakeResmon(TOKEN, HEALTH_BODY);
    servers.push(live);
    const state = join(root, "state");
    await mkdir(state, { recursive: true });
    await writeFile(join(state, `api-token-${live.port}`), `${TOKEN}\n`);
    const seen: { token: string; requestsBefore: number }[] = [];
    const found = await run(
      { RESMON_PORT: String(live.port), RESMON_STATE_DIR: state },
      { onToken: (token) => seen.push({ token, requestsBefore: live.received.length }) },
    );
    expect(found.ok).toBe(true);
    expect(seen).toEqual([{ token: TOKEN, requestsBefore: 0 }]);
  });
});
