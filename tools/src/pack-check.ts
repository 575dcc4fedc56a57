/**
 * `pnpm pack:check`: the three publishable packages as a stranger gets them.
 *
 * 1. `pnpm pack` each of @resmon/mcp-contract, @resmon/api-client, @resmon/mcp-server.
 * 2. publint on all three tarballs; are-the-types-wrong (esm-only profile) on the two libraries.
 * 3. The server tarball installed with npm into an empty directory: it must bring no dependencies.
 * 4. The MCP Inspector CLI starts it with `npx resmon-mcp` against a testkit: tools/list answers
 *    the contract's 25 tools (18 read-only) and a health call answers.
 * 5. Every harness snippet in the server README, started as written (see pack-snippets.ts).
 * 6. A cold start: an empty npm cache, `npx -y --package <tarball> resmon-mcp`, from spawn until
 *    tools/list answered; compared with the Codex snippet's startup_timeout_sec.
 *
 * The checkers are installed into a temporary directory at pinned versions (not workspace deps:
 * the Inspector alone is ~110 MB). Exit 0 only when every check passed. Needs `pnpm build` first.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { READ_TOOLS, TOOL_NAMES } from "@resmon/mcp-contract";
import { startTestkit, type Testkit } from "@resmon/testkit";
import { type Launch, launchOf, REPO_ROOT, readServerSnippets, SERVER_DIR } from "./pack-snippets.js";

export const CHECKERS = {
  publint: "publint@0.3.25",
  attw: "@arethetypeswrong/cli@0.18.5",
  inspector: "@modelcontextprotocol/inspector@2.12.0",
} as const;

const PACKAGES = ["packages/contract", "packages/api-client", "packages/mcp-server"] as const;
const COLD_RUNS = 3;

type Outcome = { name: string; ok: boolean; detail: string };
const outcomes: Outcome[] = [];

function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

function record(name: string, ok: boolean, detail: string): void {
  outcomes.push({ name, ok, detail });
  say(`${ok ? "PASS" : "FAIL"} ${name}${detail ? ` — ${detail}` : ""}`);
}

/** A child environment without pnpm's npm_* variables (they would steer the npm we start). */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || /^(npm_|pnpm_)/i.test(k) || k === "XDG_STATE_HOME" || k.startsWith("RESMON_"))
      continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function exec(
  cmd: string,
  args: string[],
  opts: { cwd: string; env?: Record<string, string>; timeoutMs?: number },
) {
  return new Promise<Ran>((done) => {
    execFile(
      cmd,
      args,
      { cwd: opts.cwd, env: opts.env ?? cleanEnv(), timeout: opts.timeoutMs ?? 180_000, maxBuffer: 64 << 20 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        done({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

function lastLines(text: string, n = 6): string {
  return text.trim().split("\n").slice(-n).join(" | ");
}

async function packAll(dest: string): Promise<Map<string, string>> {
  const tarballs = new Map<string, string>();
  for (const dir of PACKAGES) {
    const ran = await exec("pnpm", ["pack", "--pack-destination", dest], { cwd: resolve(REPO_ROOT, dir) });
    const path = ran.stdout.trim().split("\n").at(-1)?.trim() ?? "";
    const ok = ran.code === 0 && path.endsWith(".tgz") && existsSync(path);
    record(`pnpm pack ${dir}`, ok, ok ? path : lastLines(ran.stderr + ran.stdout));
    if (ok) tarballs.set(dir, path);
  }
  return tarballs;
}

async function installCheckers(dir: string): Promise<boolean> {
  await writeFile(join(dir, "package.json"), '{"name":"checkers","private":true}\n');
  const ran = await exec("npm", ["install", "--no-audit", "--no-fund", ...Object.values(CHECKERS)], {
    cwd: dir,
  });
  record("install the checkers", ran.code === 0, Object.values(CHECKERS).join(", "));
  return ran.code === 0;
}

async function lintTarballs(checkers: string, tarballs: Map<string, string>): Promise<void> {
  const bin = (name: string) => join(checkers, "node_modules", ".bin", name);
  for (const [dir, tgz] of tarballs) {
    const lint = await exec(bin("publint"), ["run", tgz, "--strict"], { cwd: checkers });
    record(`publint ${dir}`, lint.code === 0, lastLines(lint.stdout + lint.stderr, 2));
    if (dir === "packages/mcp-server") continue; // a bin-only package: no types to check
    const attw = await exec(bin("attw"), [tgz, "--profile", "esm-only", "--format", "ascii"], {
      cwd: checkers,
    });
    record(
      `are-the-types-wrong ${dir}`,
      attw.code === 0,
      attw.code === 0 ? "esm-only profile" : lastLines(attw.stdout),
    );
  }
}

async function installServer(app: string, tgz: string): Promise<boolean> {
  await writeFile(join(app, "package.json"), '{"name":"a-new-user","private":true}\n');
  const ran = await exec("npm", ["install", "--no-audit", "--no-fund", tgz], { cwd: app });
  const installed = ran.code === 0 ? await readdir(join(app, "node_modules")) : [];
  const others = installed.filter((n) => !n.startsWith(".") && n !== "@resmon");
  const scoped = installed.includes("@resmon") ? await readdir(join(app, "node_modules", "@resmon")) : [];
  const ok = ran.code === 0 && others.length === 0 && scoped.join() === "mcp-server";
  record(
    "npm install the server tarball into an empty directory",
    ok,
    ran.code === 0
      ? `installed: @resmon/${scoped.join(", @resmon/")}${others.length ? `, ${others.join(", ")}` : ""}`
      : lastLines(ran.stderr),
  );
  return ok;
}

function kitEnv(kit: Testkit): Record<string, string> {
  return { RESMON_PORT_FILE: kit.portFile ?? "", RESMON_STATE_DIR: kit.stateDir };
}

async function inspector(checkers: string, app: string, kit: Testkit): Promise<void> {
  const bin = join(checkers, "node_modules", ".bin", "mcp-inspector");
  const base = ["--cli", "--cwd", app];
  const envArgs = (extra: Record<string, string>) =>
    Object.entries({ ...kitEnv(kit), ...extra }).flatMap(([k, v]) => ["-e", `${k}=${v}`]);
  const target = ["npx", "resmon-mcp"];
  for (const readOnly of [false, true]) {
    const ran = await exec(
      bin,
      [
        ...base,
        ...envArgs(readOnly ? { RESMON_MCP_READ_ONLY: "1" } : {}),
        "--method",
        "tools/list",
        ...target,
      ],
      { cwd: app, timeoutMs: 60_000 },
    );
    const names = ran.code === 0 ? toolNames(ran.stdout) : [];
    const want = readOnly ? [...READ_TOOLS] : [...TOOL_NAMES];
    const ok = ran.code === 0 && names.length === want.length && want.every((n) => names.includes(n));
    record(
      `MCP Inspector CLI: tools/list${readOnly ? " (RESMON_MCP_READ_ONLY=1)" : ""}`,
      ok,
      ran.code === 0 ? `${names.length} tools` : lastLines(ran.stderr),
    );
  }
  const call = await exec(
    bin,
    [...base, ...envArgs({}), "--method", "tools/call", "--tool-name", "health", ...target],
    {
      cwd: app,
      timeoutMs: 60_000,
    },
  );
  const body =
    call.code === 0 ? (JSON.parse(call.stdout) as { isError?: boolean; structuredContent?: unknown }) : {};
  const runtime = (body.structuredContent as { identity?: { runtime_id?: string } } | undefined)?.identity
    ?.runtime_id;
  record(
    "MCP Inspector CLI: tools/call health",
    call.code === 0 && body.isError !== true && runtime === kit.runtimeId,
    call.code === 0
      ? `runtime_id ${runtime === kit.runtimeId ? "is the testkit's" : "differs"}`
      : lastLines(call.stderr),
  );
}

function toolNames(stdout: string): string[] {
  try {
    const parsed = JSON.parse(stdout) as { tools?: { name?: unknown }[] };
    return (parsed.tools ?? []).map((t) => String(t.name));
  } catch {
    return [];
  }
}

/** `npx resmon-mcp doctor` from the installed tarball: 0 against the testkit, 1 with nothing named. */
async function doctor(app: string, home: string, kit: Testkit): Promise<void> {
  const found = await exec("npx", ["resmon-mcp", "doctor"], {
    cwd: app,
    env: cleanEnv({ HOME: home, ...kitEnv(kit) }),
  });
  const nothing = await exec("npx", ["resmon-mcp", "doctor"], {
    cwd: app,
    env: cleanEnv({ HOME: join(home, "nobody") }),
  });
  const ok =
    found.code === 0 &&
    found.stdout.includes(kit.runtimeId) &&
    nothing.code === 1 &&
    nothing.stdout.includes("Refused (nothing_named)") &&
    !`${found.stdout}${found.stderr}${nothing.stdout}${nothing.stderr}`.includes(kit.token);
  record(
    "npx resmon-mcp doctor",
    ok,
    `exit ${found.code} against the testkit, exit ${nothing.code} with nothing named`,
  );
}

/** Placeholders replaced by the running testkit's; every other value kept as written. */
export function fillIn(launch: Launch, kit: Testkit): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(launch.env)) {
    if (k === "RESMON_PORT") env[k] = String(kit.port);
    else if (k === "RESMON_PORT_FILE") env[k] = kit.portFile ?? "";
    else if (k === "RESMON_STATE_DIR") env[k] = kit.stateDir;
    else env[k] = v;
  }
  return env;
}

/** Start a launch as a harness would, list its tools and call health; the time until tools/list answered. */
async function startAndList(
  command: string,
  args: string[],
  env: Record<string, string>,
  cwd: string,
  timeoutMs: number,
): Promise<{ tools: string[]; healthOk: boolean; ms: number }> {
  const started = performance.now();
  const transport = new StdioClientTransport({ command, args, env, cwd, stderr: "ignore" });
  const client = new Client({ name: "resmon-pack-check", version: "1.0.0" });
  const timer = setTimeout(() => void transport.close(), timeoutMs);
  try {
    await client.connect(transport);
    const list = await client.listTools();
    const ms = performance.now() - started;
    const health = await client.callTool({ name: "health", arguments: {} });
    return { tools: list.tools.map((t) => t.name), healthOk: health.isError !== true, ms };
  } finally {
    clearTimeout(timer);
    await client.close().catch(() => undefined);
  }
}

async function snippets(app: string, home: string, kit: Testkit): Promise<number | undefined> {
  let codexTimeout: number | undefined;
  for (const snippet of await readServerSnippets()) {
    const launch = await launchOf(snippet);
    if (!launch) {
      record(`README snippet ${snippet.name}`, false, "no TOML reader (python3 with tomllib) to read it");
      continue;
    }
    if (launch.startupTimeoutSec !== undefined) codexTimeout = launch.startupTimeoutSec;
    const env = cleanEnv({ HOME: home, ...fillIn(launch, kit) });
    const want = env.RESMON_MCP_READ_ONLY === "1" ? READ_TOOLS.length : TOOL_NAMES.length;
    try {
      const r = await startAndList(launch.command, launch.args, env, app, 60_000);
      record(
        `README snippet ${snippet.name}`,
        r.tools.length === want && r.healthOk,
        `${launch.command} ${launch.args.join(" ")}${Object.keys(launch.env).length ? ` with ${Object.keys(launch.env).join(", ")}` : " (defaults)"}: ${r.tools.length} tools, health ${r.healthOk ? "answered" : "failed"}`,
      );
    } catch (error) {
      record(`README snippet ${snippet.name}`, false, error instanceof Error ? error.message : "failed");
    }
  }
  return codexTimeout;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
}

async function coldStarts(
  work: string,
  tgz: string,
  app: string,
  kit: Testkit,
  codexTimeout?: number,
): Promise<void> {
  const cold: number[] = [];
  for (let i = 0; i < COLD_RUNS; i++) {
    const dir = join(work, `cold-${i}`);
    await mkdir(dir, { recursive: true });
    const env = cleanEnv({ npm_config_cache: join(dir, "npm-cache"), ...kitEnv(kit) });
    try {
      const r = await startAndList("npx", ["-y", "--package", tgz, "resmon-mcp"], env, dir, 120_000);
      if (r.tools.length === TOOL_NAMES.length) cold.push(r.ms);
    } catch {
      // counted below as a missing run
    }
  }
  const warm: number[] = [];
  for (let i = 0; i < COLD_RUNS; i++) {
    try {
      const r = await startAndList("npx", ["resmon-mcp"], cleanEnv(kitEnv(kit)), app, 60_000);
      warm.push(r.ms);
    } catch {
      // counted below
    }
  }
  const fmt = (xs: number[]) => xs.map((x) => `${(x / 1000).toFixed(2)} s`).join(", ");
  record(
    `cold npx start from the tarball (empty npm cache, spawn to tools/list), ${COLD_RUNS} runs`,
    cold.length === COLD_RUNS,
    `${fmt(cold)}; median ${(median(cold) / 1000).toFixed(2)} s`,
  );
  record(
    "installed npx start (spawn to tools/list)",
    warm.length === COLD_RUNS,
    `${fmt(warm)}; median ${(median(warm) / 1000).toFixed(2)} s`,
  );
  if (codexTimeout !== undefined && cold.length > 0) {
    const worst = Math.max(...cold) / 1000;
    record(
      "Codex startup_timeout_sec leaves room for a cold start",
      worst * 5 <= codexTimeout,
      `${codexTimeout} s vs worst cold start ${worst.toFixed(2)} s (required: at least 5x, for a registry download)`,
    );
  }
}

export async function main(): Promise<number> {
  if (!existsSync(join(SERVER_DIR, "dist", "resmon-mcp.js"))) {
    say("packages/mcp-server/dist/resmon-mcp.js is missing: run `pnpm build` first.");
    return 2;
  }
  const work = await mkdtemp(join(tmpdir(), "resmon-pack-check-"));
  const home = join(work, "home");
  // The packaged app's default state directory on Linux and macOS-like layouts under this HOME.
  const stateDir = join(home, ".local", "state", "resmon");
  let kit: Testkit | undefined;
  try {
    for (const d of ["tarballs", "checkers", "app", stateDir])
      await mkdir(resolve(work, d), { recursive: true });
    const tarballs = await packAll(join(work, "tarballs"));
    const serverTgz = tarballs.get("packages/mcp-server");
    const checkers = join(work, "checkers");
    const haveCheckers = await installCheckers(checkers);
    if (haveCheckers) await lintTarballs(checkers, tarballs);
    const app = join(work, "app");
    if (serverTgz && (await installServer(app, serverTgz))) {
      kit = await startTestkit({ stateDir, seed: "small" });
      if (haveCheckers) await inspector(checkers, app, kit);
      await doctor(app, home, kit);
      const codexTimeout = await snippets(app, home, kit);
      await coldStarts(work, serverTgz, app, kit, codexTimeout);
    }
  } finally {
    await kit?.stop();
    await rm(work, { recursive: true, force: true });
  }
  const failed = outcomes.filter((o) => !o.ok);
  say(`\npack:check: ${outcomes.length - failed.length} passed, ${failed.length} failed`);
  return failed.length === 0 && outcomes.length > 0 ? 0 : 1;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename ?? "")) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      say(`pack:check could not run: ${error instanceof Error ? error.message : "error"}`);
      process.exit(1);
    },
  );
}

// Kept for tests that want to read what a tarball holds without unpacking it by hand.
export async function readPackedManifest(tgz: string): Promise<unknown> {
  const ran = await exec("tar", ["xzf", tgz, "-O", "package/package.json"], { cwd: tmpdir() });
  return ran.code === 0 ? (JSON.parse(ran.stdout) as unknown) : undefined;
}
