import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type Discovery,
  type DiscoveryRefusal,
  defaultStateDir,
  discover,
  nothingNamedForClient,
} from "../src/index.js";
import { startFakeResmon } from "./helpers/fake-resmon.js";
import {
  deadPort,
  HEALTH_BODY,
  type LoopbackServer,
  sendJson,
  startServer,
  TOKEN,
} from "./helpers/loopback-server.js";

const OTHER_TOKEN = "other_ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklm";
/** The probe's random wrong token: resmon's shape, never a token any file held. */
const WRONG = expect.stringMatching(/^Bearer [A-Za-z0-9_-]{43}$/);
const wrongOnly = (auths: (string | undefined)[], ...real: string[]) =>
  auths.every((a) => a === undefined || !real.some((t) => a.includes(t)));
/** A token no other case used: discovery remembers ports it saw refuse a token-less request, by port and token. */
const freshToken = () => randomBytes(33).toString("base64url");

let root = "";
let home = "";
const servers: LoopbackServer[] = [];
const discoveries: Discovery[] = [];

beforeEach(async () => {
  // Discovery remembers, process-wide, each port and token it saw refuse a token-less request
  // (src/discovery.ts). Each case starts as a new process would: a port the OS hands out again must
  // not find an earlier case's entry, or its token-less ask is skipped.
  (globalThis as Record<symbol, Map<string, unknown> | undefined>)[
    Symbol.for("@resmon/api-client/guard-seen")
  ]?.clear();
  root = await mkdtemp(join(tmpdir(), "resmon-discovery-"));
  home = join(root, "home");
  await mkdir(home, { recursive: true });
});

afterEach(async () => {
  await Promise.all(discoveries.splice(0).map((d) => (d.ok ? d.client.close() : undefined)));
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await rm(root, { recursive: true, force: true });
});

async function fakeResmon(token = TOKEN, health: unknown = HEALTH_BODY): Promise<LoopbackServer> {
  const server = await startFakeResmon(token, health);
  servers.push(server);
  return server;
}

async function put(path: string, text: string): Promise<string> {
  await mkdir(join(path, ".."), { recursive: true });
  await writeFile(path, text);
  return path;
}

/**
 * The packaged app's default state dir under the temp home, on the platform the test runs on: the
 * files are real, so their paths are this platform's (a win32 path is not one path.posix can resolve).
 */
function defaultState(): string {
  return defaultStateDir(process.platform, {}, home);
}

async function run(
  env: Record<string, string>,
  extra: { expectedRuntimeId?: string } = {},
): Promise<Discovery> {
  const found = await discover({
    env,
    platform: process.platform,
    homedir: home,
    probeTimeoutMs: 1_000,
    ...extra,
  });
  discoveries.push(found);
  return found;
}

function refusalOf(found: Discovery): DiscoveryRefusal {
  if (found.ok) throw new Error(`expected a refusal, discovered ${found.baseUrl}`);
  expect(found.refusal.message).not.toContain(TOKEN);
  expect(found.refusal.message).not.toContain(OTHER_TOKEN);
  return found.refusal;
}

describe("which port is named", () => {
  it("nothing named: refuses in the client's words (the server says the spec's) naming the default port file, and tries nothing", async () => {
    const refusal = refusalOf(await run({}));
    const portFile = join(defaultState(), "resmon.port");
    expect(refusal).toEqual({
      kind: "nothing_named",
      message: nothingNamedForClient(portFile),
      tried: [],
      portFile,
      stateDir: defaultState(),
    });
    expect(refusal.message).toContain(
      `the port file a running resmon writes at ${portFile}. Neither named a port.`,
    );
  });

  it("RESMON_STATE_DIR alone is not naming the instance, even when it holds a live instance's files", async () => {
    const live = await fakeResmon();
    const stateDir = join(root, "state");
    await put(join(stateDir, "resmon.port"), `${live.port}\n`);
    await put(join(stateDir, `api-token-${live.port}`), TOKEN);
    await put(join(stateDir, "resmon.db"), "");
    const refusal = refusalOf(await run({ RESMON_STATE_DIR: stateDir }));
    expect(refusal.kind).toBe("nothing_named");
    expect(refusal.tried).toEqual([]);
    expect(refusal.stateDir).toBe(stateDir);
    expect(live.received).toHaveLength(0);
  });

  it("RESMON_PORT wins over the port file", async () => {
    const byEnv = await fakeResmon();
    const byFile = await fakeResmon();
    const stateDir = join(root, "state");
    await put(join(stateDir, `api-token-${byEnv.port}`), TOKEN);
    await put(join(stateDir, `api-token-${byFile.port}`), TOKEN);
    const portFile = await put(join(root, "db", "resmon.port"), String(byFile.port));
    const found = await run({
      RESMON_PORT: String(byEnv.port),
      RESMON_PORT_FILE: portFile,
      RESMON_STATE_DIR: stateDir,
    });
    expect(found).toMatchObject({ ok: true, port: byEnv.port, portSource: "RESMON_PORT", stateDir });
    // One request without the token (refused, as resmon's guard does), then one with it.
    expect(byEnv.received).toHaveLength(2);
    expect(byFile.received).toHaveLength(0);
  });

  it("reads a port file with surrounding whitespace", async () => {
    const live = await fakeResmon();
    const portFile = await put(join(root, "db", "resmon.port"), `  \n ${live.port} \r\n\n`);
    await put(join(defaultState(), `api-token-${live.port}`), `${TOKEN}\n`);
    const found = await run({ RESMON_PORT_FILE: portFile });
    expect(found).toMatchObject({
      ok: true,
      port: live.port,
      portSource: "port_file",
      portFile,
      stateDir: defaultState(),
    });
  });

  it("RESMON_PORT_FILE wins over RESMON_DB_PATH; RESMON_DB_PATH alone puts the port file beside the database", async () => {
    const a = await fakeResmon();
    const b = await fakeResmon();
    await put(join(defaultState(), `api-token-${a.port}`), TOKEN);
    await put(join(defaultState(), `api-token-${b.port}`), TOKEN);
    const explicit = await put(join(root, "explicit", "custom.port"), String(a.port));
    const dbDir = join(root, "checkout");
    await put(join(dbDir, "resmon.port"), String(b.port));
    const dbPath = join(dbDir, "resmon.db");

    const both = await run({ RESMON_PORT_FILE: explicit, RESMON_DB_PATH: dbPath });
    expect(both).toMatchObject({ ok: true, port: a.port, portFile: explicit });
    const dbOnly = await run({ RESMON_DB_PATH: dbPath });
    expect(dbOnly).toMatchObject({ ok: true, port: b.port, portFile: join(dbDir, "resmon.port") });
  });

  it("with nothing set, reads the port file beside the packaged app's default database", async () => {
    const live = await fakeResmon();
    await put(join(defaultState(), "resmon.port"), String(live.port));
    await put(join(defaultState(), `api-token-${live.port}`), TOKEN);
    const found = await run({});
    expect(found).toMatchObject({
      ok: true,
      port: live.port,
      portSource: "port_file",
      baseUrl: `http://127.0.0.1:${live.port}`,
    });
  });

  it.each(["abc", "0", "65536", "80 80", "-1"])(
    "RESMON_PORT=%j is a bad port and nothing is tried",
    async (value) => {
      const refusal = refusalOf(await run({ RESMON_PORT: value }));
      expect(refusal).toMatchObject({ kind: "bad_port", tried: [] });
      expect(refusal.message).toContain("RESMON_PORT");
    },
  );

  it("a port file that holds no port is a bad port, naming the file", async () => {
    const portFile = await put(join(root, "db", "resmon.port"), "not a port\n");
    const refusal = refusalOf(await run({ RESMON_PORT_FILE: portFile }));
    expect(refusal).toMatchObject({ kind: "bad_port", tried: [], portFile });
    expect(refusal.message).toContain(portFile);
  });
});

describe("the named instance", () => {
  it("a dead named port is refused naming that port, and nothing else is asked", async () => {
    // Another live resmon, fully published at the default location, must not be reached.
    const other = await fakeResmon(OTHER_TOKEN);
    await put(join(defaultState(), "resmon.port"), String(other.port));
    await put(join(defaultState(), `api-token-${other.port}`), OTHER_TOKEN);
    const port = await deadPort();
    await put(join(defaultState(), `api-token-${port}`), TOKEN);

    const refusal = refusalOf(await run({ RESMON_PORT: String(port) }));
    expect(refusal).toMatchObject({
      kind: "not_answering",
      port,
      tried: [`http://127.0.0.1:${port}`],
      tokenFile: join(defaultState(), `api-token-${port}`),
    });
    expect(refusal.message).toContain("resmon is not running. Start the resmon app and try again.");
    expect(refusal.message).toContain(`http://127.0.0.1:${port}`);
    expect(other.received).toHaveLength(0);
    expect(other.connections).toBe(0);
  });

  it("a named port that never answers is not_answering after the probe timeout", async () => {
    const silent = await startServer(() => {
      /* accepts, never answers */
    });
    servers.push(silent);
    await put(join(defaultState(), `api-token-${silent.port}`), TOKEN);
    const started = Date.now();
    const refusal = refusalOf(await run({ RESMON_PORT: String(silent.port) }));
    expect(refusal.kind).toBe("not_answering");
    expect(refusal.message).toContain("answered GET /api/health within 1000 ms");
    // Something accepted the connection, so the refusal does not claim resmon is not running.
    expect(refusal.message).not.toMatch(/not running/);
    // It never answers: without the probe's timeout discovery would not end. A wide margin for load.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("a named port that drops the connection is not_answering, without claiming resmon is not running", async () => {
    const dropper = await startServer((req) => req.socket.destroy());
    servers.push(dropper);
    await put(join(defaultState(), `api-token-${dropper.port}`), TOKEN);
    const refusal = refusalOf(await run({ RESMON_PORT: String(dropper.port) }));
    expect(refusal).toMatchObject({ kind: "not_answering", tried: [`http://127.0.0.1:${dropper.port}`] });
    expect(refusal.message).toContain("closed before a complete answer arrived");
    expect(refusal.message).not.toMatch(/not running/);
  });

  it("no token file for the port: refused naming the path, after one health request carrying no token", async () => {
    const live = await fakeResmon();
    const stateDir = join(root, "state");
    const refusal = refusalOf(await run({ RESMON_PORT: String(live.port), RESMON_STATE_DIR: stateDir }));
    const tokenFile = join(stateDir, `api-token-${live.port}`);
    const url = `http://127.0.0.1:${live.port}`;
    expect(refusal).toMatchObject({
      kind: "no_token_file",
      port: live.port,
      tokenFile,
      stateDir,
      tried: [url],
    });
    expect(refusal.message).toContain(tokenFile);
    expect(refusal.message).toContain("set RESMON_STATE_DIR");
    expect(refusal.message).not.toMatch(/not running/);
    // resmon's guard answered the token-less health 401 token_missing: a guarded resmon, elsewhere's state dir.
    expect(live.received.map((r) => [r.method, r.url, r.headers.authorization])).toEqual([
      ["GET", "/api/health", undefined],
    ]);
  });

  describe("an unguarded resmon (the public 1.6/1.7 build: no guard, no token file, health without identity)", () => {
    const PUBLIC_HEALTH = {
      status: "ok",
      pid: 4242,
      started_at: "2026-01-01T00:00:00+00:00",
      version: "1.6.1",
    };
    const unguarded = (health: unknown, status = 200, type = "application/json") =>
      startServer((_req, res) => {
        const text = typeof health === "string" ? health : JSON.stringify(health);
        res.writeHead(status, { "content-type": type, "content-length": Buffer.byteLength(text) });
        res.end(text);
      }).then((s) => {
        servers.push(s);
        return s;
      });

    it("is refused as unguarded_resmon, saying updating resmon is the way, not RESMON_STATE_DIR", async () => {
      const live = await unguarded(PUBLIC_HEALTH);
      const refusal = refusalOf(await run({ RESMON_PORT: String(live.port) }));
      expect(refusal).toMatchObject({
        kind: "unguarded_resmon",
        port: live.port,
        tried: [`http://127.0.0.1:${live.port}`],
      });
      expect(refusal.message).toContain("resmon 1.6.1 answers at");
      expect(refusal.message).toContain("no local API guard");
      expect(refusal.message).toContain("attaches only to a resmon that publishes a token");
      expect(refusal.message).toMatch(/update the resmon app/);
      expect(refusal.message).not.toMatch(/set RESMON_STATE_DIR|not running/);
      // One request, carrying nothing secret: no Authorization header at all.
      expect(live.received).toHaveLength(1);
      expect(live.received[0]?.headers).not.toHaveProperty("authorization");
    });

    it.each([
      ["an HTML page", 200, "text/html", "<html>hello</html>"],
      ["JSON that is not a health report", 200, "application/json", '{"hello": "world"}'],
      ["a 404", 404, "application/json", '{"detail": "Not Found"}'],
    ])(
      "a port answering the token-less health with %s stays no_token_file",
      async (_w, status, type, body) => {
        const live = await unguarded(body, status, type);
        expect(refusalOf(await run({ RESMON_PORT: String(live.port) })).kind).toBe("no_token_file");
      },
    );

    it("a token file that is there is used once the port has refused a wrong token as resmon does", async () => {
      const live = await fakeResmon();
      await put(join(defaultState(), `api-token-${live.port}`), TOKEN);
      const found = await run({ RESMON_PORT: String(live.port) });
      expect(found.ok).toBe(true);
      expect(live.received.map((r) => r.headers.authorization)).toEqual([WRONG, `Bearer ${TOKEN}`]);
    });
  });

  it("a token file that does not hold a token counts as no token", async () => {
    const live = await fakeResmon();
    await put(join(defaultState(), `api-token-${live.port}`), "short\n");
    const refusal = refusalOf(await run({ RESMON_PORT: String(live.port) }));
    expect(refusal.kind).toBe("no_token_file");
    expect(refusal.message).toContain("does not hold a token");
  });

  it("a stale token is refused as token_refused", async () => {
    const live = await fakeResmon(TOKEN);
    await put(join(defaultState(), `api-token-${live.port}`), OTHER_TOKEN);
    const refusal = refusalOf(await run({ RESMON_PORT: String(live.port) }));
    expect(refusal).toMatchObject({
      kind: "token_refused",
      port: live.port,
      tried: [`http://127.0.0.1:${live.port}`],
    });
    expect(refusal.message).toContain("token_invalid");
    expect(refusal.message).not.toMatch(/not running/);
    expect(live.received.map((r) => r.headers.authorization)).toEqual([WRONG, `Bearer ${OTHER_TOKEN}`]);
  });

  it.each([
    ["an HTML page", 200, "text/html", "<html><body>hello</body></html>"],
    ["JSON that is not a health report", 200, "application/json", '{"hello": "world"}'],
    ["a 404", 404, "application/json", '{"detail": "Not Found"}'],
    ["a 500 with an empty body", 500, "text/plain", ""],
  ])(
    "a port answered by something that is not resmon (%s) is not_resmon",
    async (_what, status, type, body) => {
      const stranger = await startServer((_req, res) => {
        res.writeHead(status, { "content-type": type });
        res.end(body);
      });
      servers.push(stranger);
      await put(join(defaultState(), `api-token-${stranger.port}`), TOKEN);
      const refusal = refusalOf(await run({ RESMON_PORT: String(stranger.port) }));
      expect(refusal).toMatchObject({ kind: "not_resmon", tried: [`http://127.0.0.1:${stranger.port}`] });
      expect(refusal.message).toContain("Something answered");
      expect(refusal.message).not.toMatch(/not running/);
    },
  );
});

describe("a confirmed instance", () => {
  it("returns a working client, the health report and the parsed identity", async () => {
    const live = await fakeResmon();
    await put(join(defaultState(), `api-token-${live.port}`), TOKEN);
    const found = await run({ RESMON_PORT: String(live.port) });
    if (!found.ok) throw new Error(found.refusal.message);
    expect(found.health).toEqual(HEALTH_BODY);
    expect(found.identity).toEqual({ ok: true, identity: HEALTH_BODY.identity });
    expect(found.identityMatchesExpected).toBeUndefined();
    const routines = await found.client.GET("/api/routines");
    expect(routines).toMatchObject({ ok: true, data: [] });
    const { client: _client, ...rest } = found;
    expect(JSON.stringify(rest)).not.toContain(TOKEN);
  });

  it("reports whether the identity matches an expected runtime id", async () => {
    const live = await fakeResmon();
    await put(join(defaultState(), `api-token-${live.port}`), TOKEN);
    const same = await run(
      { RESMON_PORT: String(live.port) },
      { expectedRuntimeId: HEALTH_BODY.identity.runtime_id },
    );
    const other = await run(
      { RESMON_PORT: String(live.port) },
      { expectedRuntimeId: "11111111-2222-4333-8444-555555555555" },
    );
    expect(same).toMatchObject({ ok: true, identityMatchesExpected: true });
    expect(other).toMatchObject({ ok: true, identityMatchesExpected: false });
    expect(live.received.every((r) => r.url === "/api/health")).toBe(true);
  });

  it("a health report without identity still connects, with identity missing", async () => {
    const { identity: _identity, ...older } = HEALTH_BODY;
    const live = await fakeResmon(TOKEN, older);
    await put(join(defaultState(), `api-token-${live.port}`), TOKEN);
    const found = await run({ RESMON_PORT: String(live.port) });
    expect(found).toMatchObject({ ok: true, identity: { ok: false, problem: "missing" } });
  });

  it("accepts a minimal health report (status only), identity missing, from a resmon with its guard", async () => {
    const server = await fakeResmon(TOKEN, { status: "ok" });
    await put(join(defaultState(), `api-token-${server.port}`), TOKEN);
    expect(await run({ RESMON_PORT: String(server.port) })).toMatchObject({
      ok: true,
      identity: { ok: false, problem: "missing" },
    });
    // Asked with a random wrong token first: the guard refused it (token_invalid), so the token was sent.
    expect(server.received.map((r) => r.headers.authorization)).toEqual([WRONG, `Bearer ${TOKEN}`]);
  });

  describe("attached only to a port that refuses a wrong token with token_invalid (issues 34 and 41)", () => {
    it("a stale token file beside another process answering 200 with an identity: refused by name, the token never sent", async () => {
      // A crash left api-token-<port>; another process took the port and answers everything.
      const impostor = await startServer((_req, res) => sendJson(res, 200, HEALTH_BODY));
      servers.push(impostor);
      // A token of its own: a port an earlier case confirmed with TOKEN may be handed out again.
      const tokenFile = await put(join(defaultState(), `api-token-${impostor.port}`), freshToken());
      const refusal = refusalOf(await run({ RESMON_PORT: String(impostor.port) }));
      expect(refusal.kind).toBe("not_resmon");
      expect(refusal.message).toContain(
        "with a health report when asked with a random wrong token, where resmon refuses with 401 token_invalid",
      );
      expect(refusal.message).toContain(`not the resmon that wrote ${tokenFile}`);
      expect(refusal.message).toContain("The token was not sent");
      expect(impostor.received.map((r) => r.headers.authorization)).toEqual([WRONG]);
    });

    it("an impostor that refuses only a missing token (401 token_missing) and takes any bearer is not_resmon", async () => {
      // Issue 41 point 4: it answered the old token-less probe as resmon does, and was attached.
      const forged = { ...HEALTH_BODY, version: "9.9.9" };
      const impostor = await startServer((req, res) => {
        if (req.headers.authorization === undefined) {
          sendJson(res, 401, {
            detail: { reason: "token_missing", message: "This request needs resmon's local API token." },
          });
          return;
        }
        sendJson(res, 200, forged);
      });
      servers.push(impostor);
      const token = freshToken();
      await put(join(defaultState(), `api-token-${impostor.port}`), token);
      const refusal = refusalOf(await run({ RESMON_PORT: String(impostor.port) }));
      expect(refusal.kind).toBe("not_resmon");
      expect(refusal.message).toContain("with a health report when asked with a random wrong token");
      const auths = impostor.received.map((r) => r.headers.authorization);
      expect(auths).toEqual([WRONG]);
      expect(wrongOnly(auths, token)).toBe(true);
    });

    it.each([
      ["token_missing", 401, { detail: { reason: "token_missing", message: "no" } }],
      ["no reason", 401, { detail: "Unauthorized" }],
      ["host_refused", 401, { detail: { reason: "host_refused", message: "no" } }],
    ])("a 401 to the wrong token naming %s (not token_invalid) is not_resmon", async (_w, status, body) => {
      const server = await startServer((_req, res) => sendJson(res, status, body));
      servers.push(server);
      await put(join(defaultState(), `api-token-${server.port}`), freshToken());
      const refusal = refusalOf(await run({ RESMON_PORT: String(server.port) }));
      expect(refusal.kind).toBe("not_resmon");
      expect(refusal.message).toContain("with HTTP 401");
      expect(server.received.map((r) => r.headers.authorization)).toEqual([WRONG]);
    });

    it("a guarded resmon is asked once with a wrong token, then not again for that token and runtime id", async () => {
      const live = await fakeResmon();
      await put(join(defaultState(), `api-token-${live.port}`), TOKEN);
      expect((await run({ RESMON_PORT: String(live.port) })).ok).toBe(true);
      expect((await run({ RESMON_PORT: String(live.port) })).ok).toBe(true);
      expect(live.received.map((r) => r.headers.authorization)).toEqual([
        WRONG,
        `Bearer ${TOKEN}`,
        `Bearer ${TOKEN}`,
      ]);
    });

    it("the same token reaching another runtime id is asked again: an impostor then is refused", async () => {
      let guarded = true;
      let health: unknown = HEALTH_BODY;
      const box = { port: 0 };
      const server = await startServer((req, res) => {
        if (guarded && req.headers.authorization !== `Bearer ${TOKEN}`) {
          sendJson(res, 401, { detail: { reason: "token_invalid", message: "not this resmon's" } });
          return;
        }
        sendJson(res, 200, health);
      });
      box.port = server.port;
      servers.push(server);
      await put(join(defaultState(), `api-token-${server.port}`), TOKEN);
      expect((await run({ RESMON_PORT: String(server.port) })).ok).toBe(true);
      // resmon stopped without removing its token file; something else answers on the port now.
      guarded = false;
      const runtime_id = "0f4c3a1e-9d2b-4c4e-8f7a-2b1c3d4e5f60";
      health = { ...HEALTH_BODY, identity: { ...HEALTH_BODY.identity, runtime_id } };
      const refusal = refusalOf(await run({ RESMON_PORT: String(server.port) }));
      expect(refusal.kind).toBe("not_resmon");
      expect(server.received.map((r) => r.headers.authorization)).toEqual([
        WRONG,
        `Bearer ${TOKEN}`,
        `Bearer ${TOKEN}`,
        WRONG,
      ]);
    });

    it.each([
      ["a 404", 404],
      ["a 500", 500],
      ["a 403", 403],
    ])(
      "a port answering the wrong-token health with %s is not_resmon, the token never sent",
      async (_w, status) => {
        const server = await startServer((_req, res) => sendJson(res, status, { detail: "no" }));
        servers.push(server);
        await put(join(defaultState(), `api-token-${server.port}`), freshToken());
        const refusal = refusalOf(await run({ RESMON_PORT: String(server.port) }));
        expect(refusal.kind).toBe("not_resmon");
        expect(refusal.message).toContain(`with HTTP ${status} when asked with a random wrong token`);
        expect(server.received.map((r) => r.headers.authorization)).toEqual([WRONG]);
      },
    );
  });

  it("a token file beside a resmon with no guard (which takes any token) is not attached through", async () => {
    const server = await startServer((_req, res) =>
      sendJson(res, 200, { status: "ok", pid: 1, started_at: "2026-01-01T00:00:00", version: "1.7.0" }),
    );
    servers.push(server);
    await put(join(defaultState(), `api-token-${server.port}`), OTHER_TOKEN);
    const refusal = refusalOf(await run({ RESMON_PORT: String(server.port) }));
    expect(refusal.kind).toBe("unguarded_resmon");
    expect(refusal.message).toContain("resmon 1.7.0 answers at");
    expect(refusal.message).toContain("is not its own");
    // Asked with a random wrong token first, it answered: the token file's token was never sent.
    expect(server.received.map((r) => r.headers.authorization)).toEqual([WRONG]);
  });
});
