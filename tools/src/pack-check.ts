/**
 * `pnpm pack:check`: the three publishable packages and the Claude Desktop bundle as a stranger gets them.
 *
 * 1. `pnpm pack` each of @resmon/mcp-contract, @resmon/api-client, @resmon/mcp-server.
 * 2. publint on all three tarballs; are-the-types-wrong (esm-only profile) on the two libraries.
 * 3. The server tarball installed with npm into an empty directory: it must bring no dependencies.
 * 4. The MCP Inspector CLI starts it with `npx resmon-mcp` against a testkit: tools/list answers
 *    every tool of the contract (only the reads, read-only) and a health call answers; `npx resmon-mcp doctor`.
 * 5. Every harness snippet in the server README, read as its harness reads it and started as
 *    written (see pack-snippets.ts); the Claude Code ones through `claude mcp add` / `.mcp.json`
 *    and `claude mcp list`, the Codex ones through `codex mcp get --json`, each in its own HOME.
 * 6. The .mcpb bundle (bundle.ts): `mcpb validate`, `mcpb pack`, `mcpb unpack`, then started as
 *    Claude Desktop starts it (mcpb's own getMcpConfigForManifest) with three sets of settings.
 * 7. A cold start: an empty npm cache, `npx -y --package <tarball> resmon-mcp`, from spawn until
 *    tools/list answered; compared with the Codex snippet's startup_timeout_sec.
 *
 * The npm CLIs are pinned in npm-tools.ts and installed once into a cache directory. Independent
 * steps run side by side (2 cores in CI). Exit 0 only when every check passed. Needs `pnpm build`.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { READ_TOOLS, TOOL_NAMES } from "@resmon/mcp-contract";
import { startTestkit, type Testkit } from "@resmon/testkit";
import { buildBundle } from "./bundle.js";
import { ensureTools, type Tools } from "./npm-tools.js";
import {
  harnessOf,
  type Launch,
  launchesOf,
  launchFromEntry,
  PLACEHOLDER,
  REPO_ROOT,
  readServerSnippets,
  SERVER_DIR,
  type Snippet,
  shellWords,
} from "./pack-snippets.js";

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

async function installTools(): Promise<Tools | undefined> {
  const started = performance.now();
  try {
    const tools = await ensureTools();
    const secs = ((performance.now() - started) / 1000).toFixed(1);
    record(
      "the pinned npm CLIs",
      true,
      `${tools.installed ? `installed in ${secs} s` : "from the cache"}: ${tools.dir}`,
    );
    return tools;
  } catch (error) {
    record("the pinned npm CLIs", false, error instanceof Error ? error.message : "install failed");
    return undefined;
  }
}

async function lintTarballs(tools: Tools, tarballs: Map<string, string>): Promise<void> {
  await Promise.all(
    [...tarballs].map(async ([dir, tgz]) => {
      const lint = await exec(tools.bin("publint"), ["run", tgz, "--strict"], { cwd: tools.dir });
      record(`publint ${dir}`, lint.code === 0, lastLines(lint.stdout + lint.stderr, 2));
      if (dir === "packages/mcp-server") return; // a bin-only package: no types to check
      const attw = await exec(tools.bin("attw"), [tgz, "--profile", "esm-only", "--format", "ascii"], {
        cwd: tools.dir,
      });
      record(
        `are-the-types-wrong ${dir}`,
        attw.code === 0,
        attw.code === 0 ? "esm-only profile" : lastLines(attw.stdout),
      );
    }),
  );
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

async function inspector(tools: Tools, app: string, kit: Testkit): Promise<void> {
  const bin = tools.bin("inspector");
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

/** Where the placeholders of the snippets point in this run. */
export interface Where {
  kit: Pick<Testkit, "port" | "portFile" | "stateDir">;
  /** The directory the server tarball was npm-installed into. */
  app: string;
  /** The packed server tarball. */
  tarball: string;
}

/** A path placeholder replaced by this run's; any other word kept as written. */
export function fillPath(word: string, where: Where): string {
  if (word === PLACEHOLDER.node) return process.execPath;
  if (word.startsWith(PLACEHOLDER.clone)) return `${REPO_ROOT}/${word.slice(PLACEHOLDER.clone.length)}`;
  if (word.startsWith(PLACEHOLDER.installed))
    return `${where.app}/${word.slice(PLACEHOLDER.installed.length)}`;
  if (PLACEHOLDER.tarball.test(word)) return where.tarball;
  return word;
}

/** A variable's placeholder value replaced by the running testkit's; the switches kept as written. */
export function fillValue(name: string, value: string, where: Where): string {
  if (name === "RESMON_PORT") return String(where.kit.port);
  if (name === "RESMON_PORT_FILE") return where.kit.portFile ?? "";
  if (name === "RESMON_STATE_DIR") return where.kit.stateDir;
  return value;
}

/** A launch with every placeholder replaced; nothing added that the snippet did not set. */
export function fillIn(launch: Launch, where: Where): Launch {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(launch.env)) env[k] = fillValue(k, v, where);
  return {
    ...launch,
    command: fillPath(launch.command, where),
    args: launch.args.map((a) => fillPath(a, where)),
    env,
  };
}

/** A shell word as the filled-in snippet has it: `NAME=value` values and paths replaced. */
function fillWord(word: string, where: Where): string {
  const m = /^([A-Z_][A-Z0-9_]*)=(.*)$/s.exec(word);
  if (m?.[1]?.startsWith("RESMON_")) return `${m[1]}=${fillValue(m[1], m[2] ?? "", where)}`;
  return fillPath(word, where);
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

/** A fresh HOME with the testkit at the packaged app's default state directory under it. */
async function homeFor(work: string, name: string, kit: Testkit): Promise<string> {
  const home = join(work, "homes", name);
  const state = join(home, ".local", "state", "resmon");
  await mkdir(dirname(state), { recursive: true });
  await symlink(kit.stateDir, state);
  return home;
}

const sameLaunch = (a: Launch, b: Launch) =>
  a.command === b.command && isDeepStrictEqual(a.args, b.args) && isDeepStrictEqual(a.env, b.env);

const describeLaunch = (l: Launch) =>
  `${l.command} ${l.args.join(" ")}${Object.keys(l.env).length ? ` with ${Object.keys(l.env).join(", ")}` : " (defaults)"}`;

/** Start a filled-in launch and check tools/list (25, or 18 read-only) and a health call. */
async function tryLaunch(
  label: string,
  launch: Launch,
  home: string,
  cwd: string,
  readOnly = launch.env.RESMON_MCP_READ_ONLY === "1",
): Promise<void> {
  const env = cleanEnv({ HOME: home, ...launch.env });
  const want = readOnly ? READ_TOOLS.length : TOOL_NAMES.length;
  try {
    const r = await startAndList(launch.command, launch.args, env, cwd, 60_000);
    record(
      label,
      r.tools.length === want && r.healthOk,
      `${describeLaunch(launch)}: ${r.tools.length} tools, health ${r.healthOk ? "answered" : "failed"}`,
    );
  } catch (error) {
    record(label, false, error instanceof Error ? error.message : "failed");
  }
}

interface Claude {
  bin: string;
  home: string;
  /** A project directory inside the app directory, so `npx` finds the installed tarball. */
  project: string;
}

function claudeRun(c: Claude, args: string[]) {
  return exec(c.bin, args, { cwd: c.project, env: cleanEnv({ HOME: c.home }), timeoutMs: 90_000 });
}

/** `claude mcp list`: does it show this server connected? */
async function claudeConnected(c: Claude, server: string): Promise<{ ok: boolean; line: string }> {
  const list = await claudeRun(c, ["mcp", "list"]);
  const line =
    list.stdout.split("\n").find((l) => l.startsWith(`${server}: `)) ??
    lastLines(list.stdout + list.stderr, 2);
  return { ok: list.code === 0 && /- ✔ Connected$/.test(line), line };
}

/** The entry Claude Code wrote to ~/.claude.json (user scope, or this project's local scope). */
async function claudeStored(c: Claude, server: string): Promise<unknown> {
  const config = JSON.parse(await readFile(join(c.home, ".claude.json"), "utf8")) as {
    mcpServers?: Record<string, unknown>;
    projects?: Record<string, { mcpServers?: Record<string, unknown> }>;
  };
  return config.mcpServers?.[server] ?? config.projects?.[c.project]?.mcpServers?.[server];
}

/** A `claude mcp add` line run by Claude Code's CLI; what it stored is the launch tried after. */
async function claudeCliSnippet(c: Claude, snippet: Snippet, parsed: Launch, where: Where): Promise<Launch> {
  const words = shellWords(snippet.text).map((w) => fillWord(w, where));
  const want = fillIn(parsed, where);
  const add = await claudeRun(c, words.slice(1));
  let stored: Launch | undefined;
  try {
    stored = launchFromEntry(
      snippet.name,
      parsed.server,
      await claudeStored(c, parsed.server),
      "claude.json",
    );
  } catch {
    // reported below
  }
  const listed =
    add.code === 0 ? await claudeConnected(c, parsed.server) : { ok: false, line: lastLines(add.stderr) };
  record(
    `Claude Code reads ${snippet.name}`,
    add.code === 0 && stored !== undefined && sameLaunch(stored, want) && listed.ok,
    add.code !== 0
      ? `claude mcp add failed: ${lastLines(add.stderr + add.stdout, 2)}`
      : stored === undefined
        ? "nothing stored in ~/.claude.json"
        : !sameLaunch(stored, want)
          ? `stored ${describeLaunch(stored)}, expected ${describeLaunch(want)}`
          : `claude mcp list: ${listed.line}`,
  );
  return stored ?? want;
}

/** `.mcp.json` in a project Claude Code was told to trust (as answering its prompt records). */
async function claudeMcpJson(c: Claude, snippet: Snippet, launches: Launch[], where: Where): Promise<void> {
  const doc = JSON.parse(snippet.text) as { mcpServers: Record<string, Record<string, unknown>> };
  for (const l of launches) {
    const filled = fillIn(l, where);
    doc.mcpServers[l.server] = {
      ...doc.mcpServers[l.server],
      command: filled.command,
      args: filled.args,
      env: filled.env,
    };
  }
  await writeFile(join(c.project, ".mcp.json"), JSON.stringify(doc, null, 2));
  const trusted = { hasTrustDialogAccepted: true, enabledMcpjsonServers: launches.map((l) => l.server) };
  await writeFile(join(c.home, ".claude.json"), JSON.stringify({ projects: { [c.project]: trusted } }));
  for (const l of launches) {
    const listed = await claudeConnected(c, l.server);
    record(`Claude Code reads ${snippet.name} (${l.server})`, listed.ok, `claude mcp list: ${listed.line}`);
  }
}

/** Codex's own reading of the snippet as ~/.codex/config.toml, against the test's. */
async function codexReads(bin: string, snippet: Snippet, launches: Launch[], home: string): Promise<void> {
  const codexHome = join(home, ".codex");
  await mkdir(codexHome, { recursive: true });
  await writeFile(join(codexHome, "config.toml"), `${snippet.text}\n`);
  for (const l of launches) {
    const got = await exec(bin, ["mcp", "get", l.server, "--json"], {
      cwd: home,
      env: cleanEnv({ HOME: home, CODEX_HOME: codexHome }),
      timeoutMs: 60_000,
    });
    let read: {
      transport?: { command?: string; args?: string[]; env?: Record<string, string> };
      startup_timeout_sec?: number;
    } = {};
    try {
      read = JSON.parse(got.stdout) as typeof read;
    } catch {
      // reported below
    }
    const t = read.transport ?? {};
    const ok =
      got.code === 0 &&
      t.command === l.command &&
      isDeepStrictEqual(t.args, l.args) &&
      isDeepStrictEqual(t.env ?? {}, l.env) &&
      read.startup_timeout_sec === l.startupTimeoutSec;
    record(
      `Codex reads ${snippet.name} (${l.server})`,
      ok,
      got.code === 0
        ? `codex mcp get --json: ${t.command} ${(t.args ?? []).join(" ")}, env ${Object.keys(t.env ?? {}).join(", ")}, startup_timeout_sec ${read.startup_timeout_sec}`
        : lastLines(got.stderr + got.stdout, 2),
    );
  }
}

/** Run `fn` over `items`, at most `n` at a time. */
async function pool<T>(items: readonly T[], n: number, fn: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: Math.min(n, queue.length) }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await fn(item);
    }),
  );
}

/** Every README snippet, three at a time; the Codex snippet's start-up timeout. */
async function snippets(
  work: string,
  where: Where,
  kit: Testkit,
  tools: Tools | undefined,
): Promise<number | undefined> {
  let codexTimeout: number | undefined;
  await pool(await readServerSnippets(), 3, async (snippet) => {
    const launches = await launchesOf(snippet).catch((error: unknown) => {
      record(`README snippet ${snippet.name}`, false, error instanceof Error ? error.message : "unreadable");
      return [] as Launch[];
    });
    if (launches === undefined) {
      record(`README snippet ${snippet.name}`, false, "no TOML reader (python3 with tomllib) to read it");
      return;
    }
    const home = await homeFor(work, snippet.name, kit);
    const project = join(where.app, "projects", snippet.name);
    await mkdir(project, { recursive: true });
    const harness = harnessOf(snippet.name);
    const claude = tools ? { bin: tools.bin("claude"), home, project } : undefined;
    const toTry = launches.map((l) => fillIn(l, where));
    if (harness === "claude-cli" && claude && launches[0])
      toTry[0] = await claudeCliSnippet(claude, snippet, launches[0], where);
    if (harness === "claude-mcp-json" && claude) await claudeMcpJson(claude, snippet, launches, where);
    if (harness === "codex") {
      for (const l of launches) if (l.startupTimeoutSec !== undefined) codexTimeout = l.startupTimeoutSec;
      if (tools) await codexReads(tools.bin("codex"), snippet, launches, home);
    }
    for (const l of toTry) await tryLaunch(`README snippet ${snippet.name} (${l.server})`, l, home, project);
  });
  return codexTimeout;
}

interface McpbLib {
  getMcpConfigForManifest(options: {
    manifest: unknown;
    extensionPath: string;
    systemDirs: Record<string, string>;
    userConfig: Record<string, unknown>;
    pathSeparator: string;
  }): Promise<{ command: string; args?: string[]; env?: Record<string, string> } | undefined>;
}

/** The bundle built, validated, unpacked and started as Claude Desktop starts it. */
async function bundle(tools: Tools, work: string, kit: Testkit): Promise<void> {
  const built = await buildBundle(tools);
  record(
    "mcpb validate manifest.json",
    built.validate.code === 0,
    lastLines(built.validate.stdout + built.validate.stderr, 1),
  );
  record(
    "mcpb pack",
    built.pack.code === 0 && existsSync(built.path),
    built.pack.code === 0 ? built.path : lastLines(built.pack.stderr),
  );
  if (built.pack.code !== 0) return;
  const unpacked = join(work, "bundle-unpacked");
  const unpack = await exec(tools.bin("mcpb"), ["unpack", built.path, unpacked], { cwd: work });
  record("mcpb unpack", unpack.code === 0, lastLines(unpack.stdout + unpack.stderr, 1));
  if (unpack.code !== 0) return;
  const lib = (await import(
    pathToFileURL(join(tools.dir, "node_modules", "@anthropic-ai", "mcpb", "dist", "index.js")).href
  )) as McpbLib;
  const manifest = JSON.parse(await readFile(join(unpacked, "manifest.json"), "utf8")) as unknown;
  const cases: { label: string; settings: Record<string, unknown> }[] = [
    { label: "no settings (the packaged app's defaults)", settings: {} },
    {
      label: "port file and state directory",
      settings: { port_file: kit.portFile, state_dir: kit.stateDir },
    },
    {
      label: "port, state directory, read-only",
      settings: { port: kit.port, state_dir: kit.stateDir, read_only: true },
    },
  ];
  await pool(cases, 3, async ({ label, settings }) => {
    const home = await homeFor(work, `bundle-${Object.keys(settings).join("-") || "defaults"}`, kit);
    const config = await lib.getMcpConfigForManifest({
      manifest,
      extensionPath: unpacked,
      systemDirs: { HOME: home, DESKTOP: home, DOCUMENTS: home, DOWNLOADS: home },
      userConfig: settings,
      pathSeparator: "/",
    });
    if (!config)
      return record(
        `bundle started by Claude Desktop's rules: ${label}`,
        false,
        "no MCP config for these settings",
      );
    // Claude Desktop runs a node bundle with the Node it ships; here that is this node.
    const command = config.command === "node" ? process.execPath : config.command;
    await tryLaunch(
      `bundle started by Claude Desktop's rules: ${label}`,
      { snippet: "bundle", server: "resmon", command, args: config.args ?? [], env: config.env ?? {} },
      home,
      unpacked,
      settings.read_only === true,
    );
  });
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
  if (!existsSync(join(SERVER_DIR, "dist", "resmon-mcp.cjs"))) {
    say("packages/mcp-server/dist/resmon-mcp.cjs is missing: run `pnpm build` first.");
    return 2;
  }
  const started = performance.now();
  const work = await mkdtemp(join(tmpdir(), "resmon-pack-check-"));
  const home = join(work, "home");
  // The packaged app's default state directory on Linux and macOS-like layouts under this HOME.
  const stateDir = join(home, ".local", "state", "resmon");
  let kit: Testkit | undefined;
  try {
    for (const d of ["tarballs", "app", stateDir]) await mkdir(resolve(work, d), { recursive: true });
    const [tarballs, tools] = await Promise.all([packAll(join(work, "tarballs")), installTools()]);
    const serverTgz = tarballs.get("packages/mcp-server");
    const app = join(work, "app");
    const [, installed] = await Promise.all([
      tools ? lintTarballs(tools, tarballs) : undefined,
      serverTgz ? installServer(app, serverTgz) : false,
    ]);
    if (serverTgz && installed) {
      kit = await startTestkit({ stateDir, seed: "small" });
      const running = kit;
      const where: Where = { kit: running, app, tarball: serverTgz };
      const [, , codexTimeout] = await Promise.all([
        tools ? inspector(tools, app, running) : undefined,
        doctor(app, home, running),
        snippets(work, where, running, tools),
        tools ? bundle(tools, work, running) : undefined,
      ]);
      await coldStarts(work, serverTgz, app, running, codexTimeout);
    }
  } finally {
    await kit?.stop();
    await rm(work, { recursive: true, force: true });
  }
  const failed = outcomes.filter((o) => !o.ok);
  say(
    `\npack:check: ${outcomes.length - failed.length} passed, ${failed.length} failed (${((performance.now() - started) / 1000).toFixed(0)} s)`,
  );
  for (const f of failed) say(`  failed: ${f.name}`);
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
