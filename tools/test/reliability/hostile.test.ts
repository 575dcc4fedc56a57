/**
 * Hostile backend (issue 15): a listener on the named port that answers with endless and huge
 * bodies or drips a byte at a time; FIFOs, devices, directories and oversized files as the port or
 * token file; a token file rewritten mid-discovery; malformed reads around a write. Whatever it
 * does, the server answers a contract error within its timeout + 1 s (+3 s in the fast subset,
 * beside other tests), a body over the ceiling is upstream_error naming the ceiling, the server's
 * peak RSS stays under 200 MB, the next call works, and no token ever comes out.
 */
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { createResmonClient, DEFAULT_MAX_BODY_BYTES, describeBytes } from "@resmon/api-client";
import { SETTINGS_KEYS_WITHHELD } from "@resmon/mcp-contract";
import { cleanEnv, type Testkit } from "@resmon/testkit";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CANARIES, leaksIn } from "../../src/reliability/canaries.js";
import { kitFor, tempDir } from "../../src/reliability/context.js";
import { type Behaviour, HostileBackend, writeAtomic } from "../../src/reliability/hostile.js";
import { accountForEveryByte } from "../../src/reliability/lifecycle.js";
import { callTool, describe as describeOutcome, type Outcome } from "../../src/reliability/outcome.js";
import {
  connectClient,
  currentServerFile,
  newFindings,
  probed,
  SERVER_CLI,
} from "../../src/reliability/proc.js";
import { holds, note } from "../../src/reliability/record.js";
import { FAST, SEED, scaled, testTimeout } from "../../src/reliability/scale.js";

const TIMEOUT_MS = 3000;
const BOUND_MS = TIMEOUT_MS + (FAST ? 3000 : 1000);
/** discover() probes GET /api/health with its own 3 s timeout, in doctor as in the server. */
const DOCTOR_BOUND_MS = 3000 + (FAST ? 3000 : 1000);
const RSS_LIMIT_KIB = 200 * 1024;
/** Past this the server is killed at once, so a server that buffers an endless body cannot sink the shared machine. */
const RSS_KILL_KIB = 400 * 1024;
const MB = 1024 * 1024;
/** The client's default body ceiling (6 MiB), as the server's answer names it. An answer over it must say so. */
const NAMES_CEILING = new RegExp(`ceiling of ${describeBytes(DEFAULT_MAX_BODY_BYTES)}`);

const figures = { peakRssKiB: 0, slowestMs: 0, cases: 0 };

let dir: string;
let kit: Testkit;
let hostile: HostileBackend;

function mintToken(): string {
  const token = randomBytes(32).toString("base64url");
  CANARIES.add(token);
  return token;
}

function serverEnvFor(): Record<string, string> {
  return cleanEnv({
    RESMON_PORT_FILE: hostile.portFile,
    RESMON_STATE_DIR: dir,
    HOME: dir,
    RESMON_MCP_TIMEOUT_MS: String(TIMEOUT_MS),
  });
}

interface Trial {
  got: Outcome;
  next: Outcome;
  problems: string[];
}

/**
 * One hostile trial on a fresh server process: `call` under the hostility, then `repair`, then
 * the same call again must succeed on the same process. Checks time, peak RSS
 * and every byte written; returns what happened and the problems found.
 */
/**
 * A call's deadline counts from when it was sent, so a first call also spends it waiting while the
 * server loads its SDK path (seconds on a loaded 2-core machine). A call to no tool loads that path
 * without reaching resmon, so what the trial then times is the hostile backend's part.
 */
async function warmSdkPath(client: Parameters<typeof callTool>[0], problems: string[]): Promise<void> {
  const warm = await callTool(client, "no_such_tool", {}, BOUND_MS + 10_000);
  if (warm.kind !== "error" || warm.code !== "invalid_argument")
    problems.push(`the warm-up call to no tool: ${describeOutcome(warm)}`);
}

async function trial(opts: {
  label: string;
  call: [string, Record<string, unknown>];
  repair: () => void | Promise<void>;
  /** Make one good call first (so discovery is done), then put the hostility in place. */
  warmThen?: () => void;
}): Promise<Trial> {
  const { client, proc } = await connectClient(`hostile-${opts.label}`, serverEnvFor());
  const stopGuard = proc.guardRss(RSS_KILL_KIB);
  const problems: string[] = [];
  try {
    await client.listTools();
    await warmSdkPath(client, problems);
    const [tool, args] = opts.call;
    if (opts.warmThen) {
      const warm = await callTool(client, tool, args, BOUND_MS + 10_000);
      if (warm.kind !== "success") problems.push(`the warm-up call: ${describeOutcome(warm)}`);
      opts.warmThen();
    }
    const got = await callTool(client, tool, args, BOUND_MS + 10_000);
    figures.slowestMs = Math.max(figures.slowestMs, got.ms);
    figures.cases++;
    if (got.ms > BOUND_MS) problems.push(`answered in ${Math.round(got.ms)} ms (bound ${BOUND_MS} ms)`);
    await opts.repair();
    const next = proc.alive
      ? await callTool(client, tool, args, BOUND_MS + 10_000)
      : ({ kind: "bad", why: "the server process is gone", ms: 0 } as const);
    if (next.kind !== "success") problems.push(`the next call: ${describeOutcome(next)}`);
    const peakKiB = stopGuard();
    if (peakKiB === null) problems.push("the server's peak RSS could not be read from /proc");
    else figures.peakRssKiB = Math.max(figures.peakRssKiB, peakKiB);
    if (proc.killedForRssKiB !== null)
      problems.push(
        `killed at ${Math.round(proc.killedForRssKiB / 1024)} MB RSS (limit ${RSS_LIMIT_KIB / 1024} MB)`,
      );
    else if (peakKiB !== null && peakKiB >= RSS_LIMIT_KIB)
      problems.push(`peak RSS ${Math.round(peakKiB / 1024)} MB (limit ${RSS_LIMIT_KIB / 1024} MB)`);
    await client.close().catch(() => undefined);
    const written = newFindings(proc, 0);
    if (written !== null) problems.push(written);
    return { got, next, problems };
  } finally {
    stopGuard();
    if (proc.alive) await proc.stop(2000);
  }
}

/** Fails naming every problem found (vitest's own message would only count them). */
function expectNone(problems: string[]): void {
  expect(problems, problems.join("; ")).toEqual([]);
}

function isError(got: Outcome, codes: readonly string[]): boolean {
  return got.kind === "error" && codes.includes(got.code);
}

/** Run `resmon-mcp doctor` under the same environment: it must end within the bound and print no token. */
async function doctor(env: Record<string, string>): Promise<string[]> {
  const child = spawn(process.execPath, [currentServerFile(), "doctor"], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (c: Buffer) => {
    out += c.toString("utf8");
  });
  child.stderr.on("data", (c: Buffer) => {
    out += c.toString("utf8");
  });
  const started = performance.now();
  const exited = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), DOCTOR_BOUND_MS + 10_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
  const ms = performance.now() - started;
  if (!exited) child.kill("SIGKILL");
  const problems: string[] = [];
  if (!exited || ms > DOCTOR_BOUND_MS)
    problems.push(
      `doctor ${exited ? `took ${Math.round(ms)} ms` : "did not end"} (bound ${DOCTOR_BOUND_MS} ms)`,
    );
  for (const hit of CANARIES.foundIn(out)) problems.push(`doctor printed canary ${hit}`);
  for (const leak of leaksIn(out)) problems.push(`doctor printed ${leak}`);
  return problems;
}

/** A copy of a JSON value with every string `name` field replaced by `text`. */
function withEveryName(value: unknown, text: string): unknown {
  if (Array.isArray(value)) return value.map((v) => withEveryName(v, text));
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      k === "name" && typeof v === "string" ? text : withEveryName(v, text),
    ]),
  );
}

/** What the stand-in itself answers at `path`, to build a hostile answer from. */
async function readKit(path: string): Promise<unknown> {
  const res = await fetch(`${kit.baseUrl}${path}`, { headers: { authorization: `Bearer ${kit.token}` } });
  return res.json();
}

// Linux only, as CI: the peak RSS is read from /proc, the FIFOs made with mkfifo.
describe.skipIf(!existsSync(SERVER_CLI) || process.platform !== "linux")("hostile backend", () => {
  beforeAll(async () => {
    dir = tempDir("hostile");
    kit = await kitFor({ stateDir: dir });
    hostile = await HostileBackend.start(kit, dir);
  }, 30_000);
  afterAll(async () => {
    await hostile?.stop();
    await kit?.stop();
  });

  describe("unbounded answers", () => {
    /** Tool calls whose first read after discovery is this route (GET). */
    const ROUTES: [string, string, Record<string, unknown>][] = [
      ["/api/watchdog", "get_watchdog_findings", {}],
      ["/api/routines", "list_routines", {}],
      ["/api/routines/1", "get_routine", { routine_id: 1 }],
    ];
    const body: fc.Arbitrary<Behaviour> = fc.oneof(
      fc.record({
        kind: fc.constant("endless" as const),
        chunkBytes: fc.constantFrom(512, 64 * 1024, MB),
        declareLength: fc.boolean(),
      }),
      fc.record({
        kind: fc.constant("huge" as const),
        bytes: fc.integer({ min: 17 * MB, max: 100 * MB }),
        declareLength: fc.boolean(),
        chunkBytes: fc.constantFrom(4 * 1024, 256 * 1024, 4 * MB),
      }),
    );

    it(
      "an endless or huge body on a tool's route: upstream_error naming the ceiling, < 200 MB, the next call works",
      async (ctx) => {
        await holds(
          ctx,
          fc.asyncProperty(fc.constantFrom(...ROUTES), body, async ([path, tool, args], behaviour) => {
            hostile.set([{ method: "GET", path, behaviour }]);
            const t = await trial({
              label: `${behaviour.kind}-${tool}`,
              call: [tool, args],
              repair: () => hostile.clear(),
            });
            hostile.clear();
            if (hostile.taken !== 1)
              t.problems.push(`the hostile body was served ${hostile.taken} times, not once`);
            if (!isError(t.got, ["upstream_error"]))
              t.problems.push(`expected upstream_error, got ${describeOutcome(t.got)}`);
            else if (!NAMES_CEILING.test(JSON.stringify(t.got.kind === "error" ? t.got.body : {})))
              t.problems.push(`upstream_error does not name the body ceiling: ${describeOutcome(t.got)}`);
            expectNone(t.problems);
          }),
          { numRuns: scaled(40, 2), seed: SEED },
        );
      },
      testTimeout(600_000),
    );

    it(
      "an endless or huge body on the discovery probe (GET /api/health): a contract error, < 200 MB, the next call works",
      async (ctx) => {
        await holds(
          ctx,
          fc.asyncProperty(body, async (behaviour) => {
            hostile.set([{ method: "GET", path: "/api/health", behaviour }]);
            const t = await trial({
              label: `probe-${behaviour.kind}`,
              call: ["list_routines", {}],
              repair: () => hostile.clear(),
            });
            hostile.clear();
            if (!isError(t.got, ["backend_unavailable", "upstream_error"]))
              t.problems.push(
                `expected backend_unavailable or upstream_error, got ${describeOutcome(t.got)}`,
              );
            expectNone(t.problems);
          }),
          { numRuns: scaled(20, 1), seed: SEED + 1 },
        );
      },
      testTimeout(300_000),
    );

    it(
      "a slow drip (one byte at a time, never finishing), on the discovery probe or on a route once discovered: a contract error within the timeout + 1 s",
      async (ctx) => {
        await holds(
          ctx,
          fc.asyncProperty(
            fc.constantFrom(
              { path: "/api/health", tool: "list_routines", warm: false },
              { path: "/api/health", tool: "health", warm: true },
              { path: "/api/watchdog", tool: "get_watchdog_findings", warm: true },
            ),
            fc.constantFrom(20, 250, 1500),
            async ({ path, tool, warm }, everyMs) => {
              const rules = [{ method: "GET", path, behaviour: { kind: "drip", everyMs } as const }];
              if (!warm) hostile.set(rules);
              const t = await trial({
                label: "drip",
                call: [tool, {}],
                repair: () => hostile.clear(),
                ...(warm ? { warmThen: () => hostile.set(rules) } : {}),
              });
              hostile.clear();
              if (!isError(t.got, ["backend_unavailable", "upstream_error"]))
                t.problems.push(
                  `expected backend_unavailable or upstream_error, got ${describeOutcome(t.got)}`,
                );
              expectNone(t.problems);
            },
          ),
          { numRuns: scaled(12, 1), seed: SEED + 2 },
        );
      },
      testTimeout(300_000),
    );

    // Discovery and the request share the call's timeout: a slow probe leaves the request only the rest.
    it(
      "a call that discovers: a slow probe (50–90 % of the timeout), then a route that never answers: within the timeout + 1 s",
      async (ctx) => {
        await holds(
          ctx,
          fc.asyncProperty(fc.integer({ min: 50, max: 90 }), async (percent) => {
            kit.setFault("/api/health", { kind: "delay", ms: (TIMEOUT_MS * percent) / 100 });
            hostile.set([
              { method: "GET", path: "/api/watchdog", behaviour: { kind: "drip", everyMs: 250 } },
            ]);
            const t = await trial({
              label: "slow-probe",
              call: ["get_watchdog_findings", {}],
              repair: () => {
                kit.clearFaults();
                hostile.clear();
              },
            });
            kit.clearFaults();
            hostile.clear();
            expectNone(t.problems);
          }),
          { numRuns: scaled(10, 1), seed: SEED + 5 },
        );
      },
      testTimeout(300_000),
    );
  });

  // Round 3 (issue 34 point 7), re-tested for issue 41: stream({maxBytes: NaN}) read a body uncapped
  // (NaN compares false with every size). The api-client's stream, on the hostile listener's endless body.
  it(
    "api-client stream on an endless body: a maxBytes that is no number of bytes is refused before anything is sent; a cap is never read past",
    async (ctx) => {
      const client = createResmonClient({ port: hostile.port, token: kit.token });
      const endless: Behaviour = { kind: "endless", chunkBytes: 64 * 1024, declareLength: false };
      hostile.set([{ method: "GET", path: "/api/executions/1/references", behaviour: endless }]);
      const seen = { refused: 0, capped: 0, largest: 0 };
      try {
        await holds(
          ctx,
          fc.asyncProperty(
            fc.oneof(
              fc.integer({ min: 0, max: 4 * MB }),
              fc.constantFrom<unknown>(Number.NaN, Number.NEGATIVE_INFINITY, -1, null, true, "1024", {}),
              fc.integer({ max: -1 }),
              fc.double({ max: -Number.MIN_VALUE, noNaN: true }),
            ),
            async (maxBytes) => {
              const before = hostile.taken;
              const opened = client.stream("GET", "/api/executions/{exec_id}/references", {
                params: { path: { exec_id: 1 }, query: { format: "bibtex" } },
                maxBytes: maxBytes as number,
              });
              if (!(typeof maxBytes === "number" && maxBytes >= 0)) {
                await expect(opened).rejects.toThrow(RangeError);
                expect(hostile.taken).toBe(before);
                seen.refused++;
                return;
              }
              const answer = await opened;
              if (!answer.ok) throw new Error(answer.error.message);
              let bytes = 0;
              await expect(
                (async () => {
                  for await (const chunk of answer.body) bytes += chunk.byteLength;
                })(),
              ).rejects.toMatchObject({ apiError: { kind: "too_large" } });
              expect(bytes).toBeLessThanOrEqual(maxBytes);
              expect(hostile.taken).toBe(before + 1);
              seen.capped++;
              seen.largest = Math.max(seen.largest, maxBytes);
            },
          ),
          { numRuns: scaled(60, 4), seed: SEED + 6 },
        );
      } finally {
        hostile.clear();
        await client.close();
      }
      note(
        ctx,
        `stream maxBytes on an endless body: ${seen.refused} refused before sending (NaN, negative, not a number), ${seen.capped} caps up to ${(seen.largest / MB).toFixed(1)} MiB never read past`,
      );
    },
    testTimeout(120_000),
  );

  describe("the port and token files", () => {
    /** Make the hostile file at `path`; the repair writes the good content back as a regular file. */
    type Maker = (path: string) => void;
    const fifo: Maker = (p) => execFileSync("mkfifo", [p]);
    const device =
      (target: string): Maker =>
      (p) =>
        symlinkSync(target, p);
    const directory: Maker = (p) => mkdirSync(p);
    const sparse: Maker = (p) => {
      writeFileSync(p, "");
      truncateSync(p, 256 * MB);
    };
    const KINDS: [string, Maker][] = [
      ["a FIFO with no writer", fifo],
      ["/dev/zero", device("/dev/zero")],
      ["/dev/urandom", device("/dev/urandom")],
      ["a directory", directory],
      ["a 256 MB (sparse) regular file", sparse],
    ];
    const ALL = (["port", "token"] as const).flatMap((which) =>
      KINDS.map(([kind, make]) => [`the ${which} file is ${kind}`, which, make] as const),
    );
    // The fast subset: a FIFO as the port file, /dev/zero as the token file, the sparse port file.
    const CASES = FAST ? [0, 6, 4].map((i) => ALL[i] as (typeof ALL)[number]) : ALL;

    it.for(CASES)(
      "%s: a contract error within the timeout + 1 s, < 200 MB, the next call works; doctor ends in time",
      { timeout: 60_000 },
      async ([, which, make]) => {
        const path = which === "port" ? hostile.portFile : hostile.tokenFile;
        const good = which === "port" ? `${hostile.port}\n` : `${kit.token}\n`;
        const swap = () => {
          rmSync(path, { recursive: true, force: true });
          make(path);
        };
        swap();
        const problems = await doctor(serverEnvFor());
        const t = await trial({
          label: `file-${which}`,
          call: ["list_routines", {}],
          repair: () => {
            rmSync(path, { recursive: true, force: true });
            writeAtomic(path, good);
          },
        });
        rmSync(path, { recursive: true, force: true });
        writeAtomic(path, good);
        if (!isError(t.got, ["backend_unavailable"]))
          t.problems.push(`expected backend_unavailable, got ${describeOutcome(t.got)}`);
        expectNone([...problems, ...t.problems]);
      },
    );
  });

  it("the token file rewritten mid-discovery: the token the client sent never comes back out", async (ctx) => {
    const health = (await readKit("/api/health")) as Record<string, unknown>;
    const routines = await readKit("/api/routines");
    const sent = mintToken();
    const rewritten = mintToken();
    hostile.writeToken(sent);
    hostile.tokensSeen.clear();
    // The probe arrives with the token read from the file; the file changes before the answer.
    hostile.onRequest = (req) => {
      if (req.url?.startsWith("/api/health")) hostile.writeToken(rewritten);
    };
    // A hostile resmon echoes whatever token it was sent, in the health report and in a routine name.
    const echo = (build: (token: string) => unknown): Behaviour => ({
      kind: "text",
      contentType: "application/json",
      body: JSON.stringify(build([...hostile.tokensSeen].join(" "))),
    });
    let problems: string[] = [];
    try {
      hostile.set([]);
      const { client, proc } = await connectClient("hostile-token-rewrite", serverEnvFor());
      await client.listTools();
      // The first call discovers (and the file is rewritten under it); the echoes are set once the token is seen.
      const first = await callTool(client, "list_routines", {}, BOUND_MS + 10_000);
      // The start-up probe's own GET /api/health may come after this
      // first call: wait for its line, or the echoing health answer below is the probe's.
      await probed(proc);
      hostile.onRequest = null;
      expect([...hostile.tokensSeen].length, "tokens the backend received").toBeGreaterThan(0);
      hostile.set([
        { method: "GET", path: "/api/health", behaviour: echo((t) => ({ ...health, version: t })) },
        {
          method: "GET",
          path: "/api/routines",
          behaviour: echo((t) => withEveryName(routines, t)),
        },
      ]);
      const echoed = [
        await callTool(client, "health", {}, BOUND_MS + 10_000),
        await callTool(client, "list_routines", {}, BOUND_MS + 10_000),
      ];
      // So a pass is a measurement: the file did change under discovery, and both echoes were served.
      expect(readFileSync(hostile.tokenFile, "utf8").trim() === rewritten, "token file rewritten").toBe(true);
      expect(hostile.taken, "echoing answers served").toBe(2);
      hostile.set([]);
      await client.close();
      problems = [first, ...echoed].filter((o) => o.kind === "bad").map(describeOutcome);
      const written = newFindings(proc, 0);
      if (written !== null) problems.push(written);
      note(
        ctx,
        `tokens the hostile backend received: ${hostile.tokensSeen.size}; answers ${echoed.map(describeOutcome).join(", ")}`,
      );
    } finally {
      hostile.onRequest = null;
      hostile.writeToken(kit.token);
    }
    expectNone(problems);
  }, 60_000);

  describe("malformed reads around a write (update_settings GET, PUT, GET)", () => {
    const GROUPS: [string, Record<string, string>][] = [
      ["ai", { ai_model: "claude-sonnet-4-5" }],
      ["embeddings", { embedding_model: "all-MiniLM-L6-v2" }],
      ["notifications", { notify_manual: "false" }],
    ];
    const MALFORMED = [
      "",
      "{",
      '{"settings":',
      "[]",
      "null",
      "42",
      '"ai"',
      "<html><body>Bad gateway</body></html>",
    ];
    const withheldNames = Object.keys(SETTINGS_KEYS_WITHHELD);

    it("the control: the same writes through the hostile listener, with well-formed reads, succeed", async () => {
      hostile.set([]);
      // The control proves the writes succeed, not a time: the SDK path is loaded first (a first call
      // spent its 3 s waiting for it on a loaded machine once), and the deadline has a wide margin.
      const { client, proc } = await connectClient("hostile-settings-control", {
        ...serverEnvFor(),
        RESMON_MCP_TIMEOUT_MS: "15000",
      });
      const warmed: string[] = [];
      await warmSdkPath(client, warmed);
      const answers: string[] = [];
      for (const [group, settings] of GROUPS)
        answers.push(
          describeOutcome(await callTool(client, "update_settings", { group, settings }, BOUND_MS + 10_000)),
        );
      await client.close();
      expect(warmed).toEqual([]);
      expect(answers).toEqual(GROUPS.map(() => "success"));
      expect(newFindings(proc, 0)).toBeNull();
    }, 60_000);

    it(
      "a malformed read before the write: upstream_error, and no PUT sent; after it: never blamed on the caller, nothing invented",
      async (ctx) => {
        await holds(
          ctx,
          fc.asyncProperty(
            fc.constantFrom(...GROUPS),
            fc.constantFrom("before" as const, "after" as const),
            fc.constantFrom(...MALFORMED),
            async ([group, settings], when, text) => {
              hostile.set([
                {
                  method: "GET",
                  path: `/api/settings/${group}`,
                  skip: when === "before" ? 0 : 1,
                  behaviour: {
                    kind: "text",
                    body: text,
                    contentType: text.startsWith("<") ? "text/html" : "application/json",
                  },
                },
              ]);
              const puts = () => kit.requests.filter((r) => r.method === "PUT").length;
              const putsBefore = puts();
              const t = await trial({
                label: `settings-${when}`,
                call: ["update_settings", { group, settings }],
                repair: () => hostile.clear(),
              });
              hostile.clear();
              if (hostile.taken !== 1)
                t.problems.push(`the malformed read was served ${hostile.taken} times, not once`);
              const sentPut = puts() - putsBefore - (t.next.kind === "success" ? 1 : 0);
              const said = t.got.kind === "bad" ? "" : JSON.stringify(t.got.body);
              if (when === "before") {
                if (!isError(t.got, ["upstream_error"]))
                  t.problems.push(`expected upstream_error, got ${describeOutcome(t.got)}`);
                if (sentPut !== 0) t.problems.push(`${sentPut} PUT(s) sent after a malformed read`);
              } else {
                if (isError(t.got, ["invalid_argument"]))
                  t.problems.push(`blamed the caller: ${describeOutcome(t.got)}`);
                if (sentPut !== 1) t.problems.push(`expected the one PUT, saw ${sentPut}`);
                if (/"to":null/.test(said))
                  t.problems.push(
                    `reports a key changed to null that resmon never said: ${said.slice(0, 200)}`,
                  );
                const named = withheldNames.filter((k) => said.includes(`"${k}"`));
                if (named.length > 0) t.problems.push(`names withheld keys ${named.join(", ")}`);
              }
              expectNone(t.problems);
            },
          ),
          { numRuns: scaled(48, 3), seed: SEED + 3 },
        );
      },
      testTimeout(300_000),
    );
  });

  it.for([
    ["answers 200 to anything", false],
    ["answers 401 token_missing without a token and 200 to any bearer (issue 41 point 4)", true],
  ] as const)(
    "an impostor on the named port that %s: not_resmon on the start-up line and in the call, nothing forged served, the token never sent",
    { timeout: 60_000 },
    async ([, refusesNoToken], ctx) => {
      const stale = mintToken();
      const seen: string[] = [];
      const impostor = createServer((req, res) => {
        seen.push(String(req.headers.authorization));
        const send = (status: number, body: unknown) => {
          res.writeHead(status, { "content-type": "application/json" });
          res.end(JSON.stringify(body));
        };
        if (refusesNoToken && req.headers.authorization === undefined)
          return send(401, {
            detail: { reason: "token_missing", message: "This request needs resmon's local API token." },
          });
        if ((req.url ?? "").startsWith("/api/routines"))
          return send(200, [
            { id: 1, name: "forged routine", parameters: "{}", schedule_cron: "* * * * *", is_active: 1 },
          ]);
        return send(200, {
          status: "ok",
          version: "2.3.0",
          identity: { contract_version: 1, runtime_id: crypto.randomUUID() },
        });
      });
      await new Promise<void>((resolve) => impostor.listen(0, "127.0.0.1", resolve));
      const port = (impostor.address() as AddressInfo).port;
      const state = tempDir("impostor");
      writeFileSync(join(state, `api-token-${port}`), `${stale}\n`, { mode: 0o600 });
      const { client, proc } = await connectClient(
        "hostile-impostor",
        cleanEnv({ RESMON_PORT: String(port), RESMON_STATE_DIR: state, HOME: state }),
      );
      const problems: string[] = [];
      try {
        await client.listTools();
        const got = await callTool(client, "list_routines", {}, BOUND_MS + 10_000);
        if (!isError(got, ["backend_unavailable"]) || !JSON.stringify(got).includes("not_resmon"))
          problems.push(`expected backend_unavailable (not_resmon), got ${describeOutcome(got)}`);
        if (JSON.stringify(got).includes("forged")) problems.push("the impostor's routine was served");
        const line = await probed(proc);
        if (line.includes("tool calls will reach it") || !line.includes("not_resmon"))
          problems.push(`start-up line: ${line}`);
        if (seen.some((a) => a.includes(stale))) problems.push("the stale token was sent to the impostor");
        await client.close();
        const written = newFindings(proc, 0);
        if (written !== null) problems.push(written);
        note(
          ctx,
          `impostor that ${refusesNoToken ? "refuses only a missing token" : "answers anything"}: ${seen.length} request(s) reached it, none with the token; start-up line said not_resmon`,
        );
      } finally {
        if (proc.alive) await proc.stop(2000);
        await new Promise<void>((resolve) => impostor.close(() => resolve()));
      }
      expectNone(problems);
    },
  );

  it("figures", (ctx) => {
    note(
      ctx,
      `${figures.cases} hostile calls (RESMON_MCP_TIMEOUT_MS=${TIMEOUT_MS}): peak server RSS ${(figures.peakRssKiB / 1024).toFixed(1)} MB (limit ${RSS_LIMIT_KIB / 1024} MB), slowest answer ${Math.round(figures.slowestMs)} ms (bound ${BOUND_MS} ms)`,
    );
    expect(figures.cases).toBeGreaterThan(0);
  });

  accountForEveryByte();
});
