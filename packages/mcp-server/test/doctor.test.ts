/** `resmon-mcp doctor` against the testkit: every way discovery can refuse, and one that works. */
import { execFile, execFileSync } from "node:child_process";
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { CONTRACT_VERSION, READ_TOOLS, TOOL_BY_NAME, WRITE_TOOLS } from "@resmon/mcp-contract";
import { startTestkit, type Testkit } from "@resmon/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IDENTITY_CONTRACT_NOTE, runDoctor, WHAT_TO_DO } from "../src/bin/doctor.js";
import { WRITE_PLAN } from "../src/bin/live-check.js";
import { VARIABLES } from "../src/config.js";
import { MAX_ECHO_CHARS } from "../src/errors.js";
import { CLI, cleanEnv, HAVE_CLI } from "./helpers/spawn.js";

const pkgDir = resolve(fileURLToPath(new URL("..", import.meta.url)));
let dir = "";
let kit: Testkit;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "resmon-doctor-"));
  kit = await startTestkit({ stateDir: join(dir, "state"), seed: "small" });
});
afterAll(async () => {
  await kit.stop();
  await rm(dir, { recursive: true, force: true });
});

async function doctor(
  env: Record<string, string>,
  homedir = join(dir, "home"),
  more: Partial<Parameters<typeof runDoctor>[0]> = {},
) {
  const lines: string[] = [];
  const code = await runDoctor({
    env,
    platform: "linux",
    homedir,
    probeTimeoutMs: 2_000,
    write: (l) => lines.push(l),
    ...more,
  });
  const text = lines.join("\n");
  expect(text).not.toContain(kit.token);
  return { code, text };
}

const named = () => ({ RESMON_PORT_FILE: kit.portFile ?? "", RESMON_STATE_DIR: kit.stateDir });

describe("resmon-mcp doctor", () => {
  it("reports what it found and exits 0 when resmon answered", async () => {
    const { code, text } = await doctor(named());
    expect(code).toBe(0);
    expect(text).toContain(`${kit.portFile} (from RESMON_PORT_FILE) — holds ${kit.port}`);
    expect(text).toContain(`${kit.stateDir} (from RESMON_STATE_DIR)`);
    expect(text).toContain(`${kit.tokenFile} — present (content not shown)`);
    expect(text).toContain(`GET /api/health at http://127.0.0.1:${kit.port}: answered`);
    expect(text).toContain(`runtime_id ${kit.runtimeId}, contract_version 1`);
    // Two versions, each said for what it is: ours in the banner, resmon's identity format here.
    expect(text.split("\n")[0]).toContain(`tool-surface contract ${CONTRACT_VERSION}`);
    expect(text).toContain(`(${IDENTITY_CONTRACT_NOTE})`);
    expect(text).toMatch(/RESMON_MCP_READ_ONLY\s+\(not set\)/);
    expect(text).not.toContain("Refused");
  });

  it("nothing named: says where it looked and what to do, exit 1", async () => {
    const { code, text } = await doctor({});
    expect(code).toBe(1);
    expect(text).toContain(
      `${join(dir, "home", ".local", "state", "resmon", "resmon.port")} (the packaged app's default) — does not exist`,
    );
    expect(text).toContain("token file:      (no port named, so none to look for)");
    expect(text).toContain("GET /api/health: not tried (nothing named a port)");
    expect(text).toContain("Refused (nothing_named)");
    expect(text).toContain(`What to do: ${WHAT_TO_DO.nothing_named}`);
  });

  it("a port file that holds something else is not echoed", async () => {
    const junk = join(dir, "junk.port");
    const secretish = "x".repeat(50);
    await writeFile(junk, secretish);
    const { code, text } = await doctor({ RESMON_PORT_FILE: junk });
    expect(code).toBe(1);
    expect(text).toContain("does not hold a port (50 characters)");
    expect(text).not.toContain(secretish);
    expect(text).toContain("Refused (bad_port)");
    expect(text).toContain(`What to do: ${WHAT_TO_DO.bad_port}`);
  });

  it("a long RESMON_PORT is not echoed", async () => {
    const { code, text } = await doctor({ RESMON_PORT: "y".repeat(60) });
    expect(code).toBe(1);
    expect(text).toContain("(set to a long value, not shown)");
    expect(text).not.toContain("y".repeat(13));
  });

  it("says whether the read-only switch is on", async () => {
    expect((await doctor({ ...named(), RESMON_MCP_READ_ONLY: "1" })).text).toMatch(
      /RESMON_MCP_READ_ONLY\s+1 \(reads only: writes refused\)/,
    );
    expect((await doctor({ ...named(), RESMON_MCP_READ_ONLY: "true" })).text).toMatch(
      /RESMON_MCP_READ_ONLY\s+true \(not exactly 1: writes stay on\)/,
    );
  });

  it("lists every variable of the configuration module, the scan's included", async () => {
    const { text } = await doctor(named());
    for (const v of VARIABLES) expect(text).toMatch(new RegExp(`^  ${v.name} `, "m"));
    expect(text).toContain("RESMON_MCP_SCAN_DATA");
    expect(text).toContain("RESMON_MCP_SCAN_WAIT_MS");
  });

  it("a value the server would not use: named, and no OK even when resmon answers", async () => {
    const { code, text } = await doctor({ ...named(), RESMON_MCP_SCAN_DATA: "relative/scans" });
    expect(code).toBe(1);
    expect(text).toMatch(/RESMON_MCP_SCAN_DATA\s+NOT USED: RESMON_MCP_SCAN_DATA is set to "relative\/scans"/);
    expect(text).toContain("Refused (bad_configuration): RESMON_MCP_SCAN_DATA is set to");
    expect(text).not.toContain("OK: a resmon answered");
  });

  it("no token file in the state dir named", async () => {
    const { code, text } = await doctor({
      RESMON_PORT: String(kit.port),
      RESMON_STATE_DIR: join(dir, "elsewhere"),
    });
    expect(code).toBe(1);
    expect(text).toContain("(not read: RESMON_PORT names the port)");
    expect(text).toContain(`${join(dir, "elsewhere")} (from RESMON_STATE_DIR) — does not exist`);
    expect(text).toContain(`${join(dir, "elsewhere", `api-token-${kit.port}`)} — absent`);
    expect(text).toContain(
      `GET /api/health: tried http://127.0.0.1:${kit.port} without a token (there was none)`,
    );
    expect(text).toContain("Refused (no_token_file)");
    expect(text).toContain(`What to do: ${WHAT_TO_DO.no_token_file}`);
  });

  it("resmon 1.6's public build, which has no guard and writes no token file: update resmon, not a setting", async () => {
    const state = join(dir, "public-16");
    const old = await startTestkit({ stateDir: state, seed: "small", as: "1.6", unguarded: true });
    try {
      const { code, text } = await doctor({ RESMON_PORT: String(old.port), RESMON_STATE_DIR: state });
      expect(code).toBe(1);
      expect(text).toContain("Refused (unguarded_resmon): resmon 1.6.1 answers at");
      expect(text).toContain(`What to do: ${WHAT_TO_DO.unguarded_resmon}`);
      expect(text).not.toContain(WHAT_TO_DO.no_token_file);
    } finally {
      await old.stop();
    }
  });

  it("a token resmon refuses", async () => {
    kit.refuseAllTokens(true);
    try {
      const { code, text } = await doctor(named());
      expect(code).toBe(1);
      expect(text).toContain("present (content not shown)");
      expect(text).toContain("Refused (token_refused)");
      expect(text).toContain(`What to do: ${WHAT_TO_DO.token_refused}`);
    } finally {
      kit.refuseAllTokens(false);
    }
  });

  it("something other than resmon on the port", async () => {
    kit.setFault("/api/health", { kind: "status", status: 404, body: { detail: "Not Found" } });
    try {
      const { code, text } = await doctor(named());
      expect(code).toBe(1);
      expect(text).toContain("Refused (not_resmon)");
      expect(text).toContain(`What to do: ${WHAT_TO_DO.not_resmon}`);
    } finally {
      kit.clearFaults();
    }
  });

  it("a port nothing listens on", async () => {
    const gone = await startTestkit({ stateDir: join(dir, "gone"), seed: "small" });
    const env = { RESMON_PORT_FILE: gone.portFile ?? "", RESMON_STATE_DIR: gone.stateDir };
    const port = gone.port;
    await gone.stop();
    // stop() removes the port file; the app that crashed would leave it behind.
    await writeFile(env.RESMON_PORT_FILE, `${port}\n`);
    await writeFile(join(gone.stateDir, `api-token-${port}`), "t".repeat(43));
    const { code, text } = await doctor(env);
    expect(code).toBe(1);
    expect(text).toContain(`tried http://127.0.0.1:${port}`);
    expect(text).toContain("Refused (not_answering)");
    expect(text).toContain(`What to do: ${WHAT_TO_DO.not_answering}`);
  });

  it("prints resmon's own text scrubbed of the token (a health version or embeddings reason carrying it)", async () => {
    kit.setFault("/api/health", {
      kind: "status",
      status: 200,
      body: {
        status: "ok",
        version: `v-${kit.token}`,
        embeddings: { extension: null, reason: `no ${kit.token}` },
      },
    });
    try {
      // doctor() itself asserts the token is nowhere in what was printed.
      const { code, text } = await doctor(named());
      expect(code).toBe(0);
      expect(text).toContain("resmon version:  v-<redacted>");
      expect(text).toContain("unavailable (no <redacted>)");
    } finally {
      kit.clearFaults();
    }
  });

  it("cuts resmon's own text to the echo bound (a 1 MB health version is not printed whole)", async () => {
    const version = "v".repeat(1_000_000);
    kit.setFault("/api/health", { kind: "status", status: 200, body: { status: "ok", version } });
    try {
      const { code, text } = await doctor(named());
      expect(code).toBe(0);
      const line = text.split("\n").find((l) => l.startsWith("  resmon version:")) ?? "";
      expect(line.length).toBeLessThan(MAX_ECHO_CHARS + 100);
      expect(line).toContain(`(${version.length - MAX_ECHO_CHARS} more characters not shown)`);
    } finally {
      kit.clearFaults();
    }
  });

  it("RESMON_PORT with nothing listening and no state dir: says resmon is not running, having checked the port", async () => {
    const gone = await startTestkit({ stateDir: join(dir, "gone-port"), seed: "small" });
    const port = gone.port;
    await gone.stop();
    const { code, text } = await doctor({ RESMON_PORT: String(port) }, join(dir, "nobody"));
    expect(code).toBe(1);
    expect(text).toContain("Refused (not_answering): resmon is not running.");
    expect(text).toContain(`Nothing accepted a connection at http://127.0.0.1:${port}`);
    expect(text).toContain(`What to do: ${WHAT_TO_DO.not_answering}`);
    expect(text).not.toContain(`What to do: ${WHAT_TO_DO.no_token_file}`);
  });

  it("probes within RESMON_MCP_TIMEOUT_MS, as the server does: no OK for a resmon the server would give up on", async () => {
    // The stand-in's health, 400 ms late: inside doctor's usual 3 s, past the 100 ms the server is given.
    const slow = createServer((req, res) => {
      setTimeout(() => {
        fetch(`http://127.0.0.1:${kit.port}${req.url}`, { headers: { authorization: `Bearer ${kit.token}` } })
          .then(async (answer) => res.writeHead(answer.status).end(await answer.text()))
          .catch(() => res.destroy());
      }, 400);
    });
    await new Promise<void>((done) => slow.listen(0, "127.0.0.1", done));
    const port = (slow.address() as AddressInfo).port;
    const state = join(dir, "slow-state");
    await mkdir(state, { recursive: true });
    await writeFile(join(state, `api-token-${port}`), kit.token, { mode: 0o600 });
    try {
      const env = { RESMON_PORT: String(port), RESMON_STATE_DIR: state, RESMON_MCP_TIMEOUT_MS: "100" };
      const { code, text } = await doctor(env, undefined, { probeTimeoutMs: undefined });
      expect(code).toBe(1);
      expect(text).toContain("Refused (not_answering)");
      expect(text).toContain("within 100 ms");
    } finally {
      await new Promise((done) => slow.close(done));
    }
  });

  it("warns, without refusing, when the token file is readable by others", async () => {
    await chmod(kit.tokenFile, 0o644);
    try {
      const { code, text } = await doctor(named());
      expect(code).toBe(0);
      expect(text).toMatch(/warning: +the token file is readable by others \(mode 644\)/);
      expect(text).toContain("(1 warning above)");
    } finally {
      await chmod(kit.tokenFile, 0o600);
    }
    expect((await doctor(named())).text).not.toContain("warning:");
  });

  it("warns, without refusing, when the token file is a symbolic link", async () => {
    const linked = join(dir, "linked-state");
    await mkdir(linked, { recursive: true });
    await symlink(kit.tokenFile, join(linked, `api-token-${kit.port}`));
    const { code, text } = await doctor({ ...named(), RESMON_STATE_DIR: linked });
    expect(code).toBe(0);
    expect(text).toMatch(/warning: +the token file is a symbolic link/);
  });

  it.skipIf(process.platform === "win32")(
    "a FIFO as the token or port file: refused at once, and explained",
    async () => {
      const fifoState = join(dir, "fifo-state");
      await mkdir(fifoState, { recursive: true });
      execFileSync("mkfifo", [join(fifoState, `api-token-${kit.port}`)]);
      const started = Date.now();
      const token = await doctor({ ...named(), RESMON_STATE_DIR: fifoState });
      expect(token.code).toBe(1);
      expect(token.text).toContain("Refused (unusable_token_file)");
      expect(token.text).toContain("is a named pipe (FIFO)");
      expect(token.text).toContain(`What to do: ${WHAT_TO_DO.unusable_token_file}`);
      const fifoPort = join(dir, "fifo.port");
      execFileSync("mkfifo", [fifoPort]);
      const port = await doctor({ RESMON_PORT_FILE: fifoPort });
      expect(port.code).toBe(1);
      expect(port.text).toContain(`${fifoPort} (from RESMON_PORT_FILE) — is a named pipe (FIFO)`);
      expect(port.text).toContain("Refused (unusable_port_file)");
      // Named by fstat before any read (a read that waited would say it timed out); a wide hang guard.
      expect(Date.now() - started).toBeLessThan(15_000);
    },
  );

  it("a refusal shows its own advice and no other kind's (every kind has some)", async () => {
    const { text } = await doctor({});
    for (const [kind, advice] of Object.entries(WHAT_TO_DO)) {
      expect(advice.length, kind).toBeGreaterThan(40);
      if (kind === "nothing_named") expect(text).toContain(advice);
      else expect(text, kind).not.toContain(advice);
    }
    expect(text.trimEnd().split("\n").at(-1)).toBe(`What to do: ${WHAT_TO_DO.nothing_named}`);
  });
});

describe("the shipped bin's doctor", { timeout: 45_000 }, () => {
  const run = (env: Record<string, string>) =>
    new Promise<{ code: number; stdout: string }>((done) => {
      const bin = join(pkgDir, "dist", "resmon-mcp.cjs");
      const base = { PATH: process.env.PATH ?? "", HOME: join(dir, "home") };
      execFile(
        process.execPath,
        [bin, "doctor"],
        { env: { ...base, ...env }, timeout: 20_000 },
        (error, stdout) => {
          done({ code: error ? Number(error.code ?? 1) : 0, stdout: String(stdout) });
        },
      );
    });

  it("exits 0 against a running resmon and 1 with nothing named, never printing the token", async () => {
    const ok = await run(named());
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain(kit.runtimeId);
    expect(ok.stdout).not.toContain(kit.token);
    const refused = await run({});
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain("Refused (nothing_named)");
  });
});

/** doctor --tools does not run a scan (a scan is a sequence of calls; scan-e2e.test.ts runs it). */
const notScan = (name: keyof typeof TOOL_BY_NAME) => !("scan_id" in TOOL_BY_NAME[name].input.shape);

describe.skipIf(!HAVE_CLI)("doctor --tools against the stand-in", { timeout: 120_000 }, () => {
  const server = { command: process.execPath, args: [CLI] };

  it("calls every read, holds each answer to the contract, and checks every write is refused read-only", async () => {
    const { code, text } = await doctor(cleanEnv(named()), undefined, { tools: true, server });
    expect(code, text).toBe(0);
    const lines = text.split("\n");
    for (const name of READ_TOOLS.filter(notScan)) {
      expect(
        lines.some((l) => new RegExp(`^  ok {4}${name} +answered; matches its output schema`).test(l)),
      ).toBe(true);
    }
    for (const name of WRITE_TOOLS) {
      expect(lines).toContainEqual(
        expect.stringMatching(new RegExp(`^  ok {4}${name} +refused: read-only session`)),
      );
    }
    expect(text).toMatch(/ok {4}token +appears nowhere in stdout or stderr/);
    expect(text).not.toContain("FAIL");
    expect(text).not.toContain("With --writes");
  });

  it("with writes, says what it will create or start before it does", async () => {
    const writes = await startTestkit({ stateDir: join(dir, "writes"), seed: "small" });
    try {
      const env = cleanEnv({ RESMON_PORT_FILE: writes.portFile ?? "", RESMON_STATE_DIR: writes.stateDir });
      const { code, text } = await doctor(env, undefined, { tools: true, writes: true, server });
      expect(code, text).toBe(0);
      const plan = text.indexOf("With --writes this check changes that resmon");
      expect(plan).toBeGreaterThan(0);
      for (const step of WRITE_PLAN) expect(text).toContain(`  - ${step}`);
      for (const name of WRITE_TOOLS.filter(notScan)) {
        const at = text.search(new RegExp(`ok {4}${name} +answered`));
        expect(at, name).toBeGreaterThan(plan);
      }
    } finally {
      await writes.stop();
    }
  });

  it("exits non-zero on a mismatch: answers outside the output schema, a bad envelope, the token in an answer", async () => {
    const lying = {
      command: process.execPath,
      args: [join(pkgDir, "test", "helpers", "lying-server.mjs")],
    };
    const env = cleanEnv({
      ...named(),
      LYING_SERVER_TOKEN: kit.token,
      LYING_SERVER_TOOLS: READ_TOOLS.join(","),
    });
    const { code, text } = await doctor(env, undefined, { tools: true, server: lying });
    expect(code).toBe(1);
    expect(text).toMatch(/FAIL {2}health +does not match its output schema/);
    expect(text).toMatch(/FAIL {2}list_sources +the answer carries the token/);
    expect(text).toMatch(/FAIL {2}get_analytics +an error outside the contract's model/);
    expect(text).toMatch(/FAIL {2}get_watchdog_findings +error upstream_error/);
    expect(text).toMatch(/FAIL {2}run_sweep +was not refused as read-only/);
    expect(text).toMatch(/FAIL {2}token +the token appears in what the server wrote/);
    expect(text).toMatch(/MISMATCH: \d+ of \d+ checks did not match the contract\./);
  });
});
