/**
 * `pnpm platform:check`: the server as a user on this machine gets it, on every platform CI holds
 * (Linux, macOS, Windows; .github/workflows/ci.yml, the `tarball` job). Written in Node, not a shell
 * script, so the same steps run on all three:
 *
 * 1. `pnpm pack` the server; `npm install` the tarball into an empty directory (no dependencies come).
 * 2. Start it the way a harness does, against a stand-in resmon (testkit): `npx resmon-mcp` on
 *    Linux and macOS; on Windows both `cmd /c npx resmon-mcp` (the README's form for a harness that
 *    starts no shell) and `npx resmon-mcp` through the MCP SDK's own spawn (which finds npx.cmd).
 *    Each: the opening, tools/list (every tool of the contract), a `health` call that reaches the
 *    stand-in.
 * 3. The installed bin over a raw pipe with CRLF line ends (what a Windows peer may write): the
 *    opening, tools/list and health answered; then stdin closed, and the server gone within 10 s
 *    with exit 0 (on Windows a harness cannot send SIGTERM: closing stdin is how it stops a server).
 * 4. `npx resmon-mcp doctor`: exit 0 naming the stand-in's runtime id; exit 1 saying
 *    `Refused (nothing_named)` with nothing named and an empty home. The token is in no output.
 *
 * Exit 0 only when every step passed. Needs `pnpm build` (the root script runs it first).
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { TOOL_NAMES } from "@resmon/mcp-contract";
import { startTestkit, type Testkit } from "@resmon/testkit";
import { kitEnv } from "./pack-check/launch.js";
import { outcomes, record, say } from "./pack-check/report.js";
import { cleanEnv } from "./pack-check/run.js";
import { BIN_IN_PACKAGE, SERVER_DIR } from "./pack-snippets.js";
import { harnessLaunch, type Launch, run } from "./platform-check/commands.js";

const lastLines = (text: string, n = 6) => text.trim().split(/\r?\n/).slice(-n).join(" | ");

/** The launches a harness on `platform` makes of the installed bin. */
export function harnessLaunches(platform: NodeJS.Platform): { label: string; launch: Launch }[] {
  const npx = { command: "npx", args: ["resmon-mcp"] };
  if (platform !== "win32") return [{ label: "npx resmon-mcp", launch: npx }];
  return [
    { label: "cmd /c npx resmon-mcp", launch: harnessLaunch(platform, npx.command, npx.args) },
    { label: "npx resmon-mcp (the MCP SDK's spawn finds npx.cmd)", launch: npx },
  ];
}

async function pack(dest: string): Promise<string | undefined> {
  const ran = await run("pnpm", ["pack", "--pack-destination", dest], { cwd: SERVER_DIR, env: cleanEnv() });
  const path = ran.stdout.trim().split(/\r?\n/).at(-1)?.trim() ?? "";
  const ok = ran.code === 0 && path.endsWith(".tgz") && existsSync(path);
  record("pnpm pack packages/mcp-server", ok, ok ? path : lastLines(ran.stderr + ran.stdout));
  return ok ? path : undefined;
}

async function install(app: string, tgz: string): Promise<boolean> {
  await writeFile(join(app, "package.json"), '{"name":"a-new-user","private":true}\n');
  const ran = await run("npm", ["install", "--no-audit", "--no-fund", tgz], { cwd: app, env: cleanEnv() });
  const installed = ran.code === 0 ? await readdir(join(app, "node_modules")) : [];
  const others = installed.filter((n) => !n.startsWith(".") && n !== "@resmon");
  const ok = ran.code === 0 && others.length === 0;
  record(
    "npm install the server tarball into an empty directory",
    ok,
    ran.code === 0 ? `others installed: ${others.join(", ") || "none"}` : lastLines(ran.stderr),
  );
  return ok;
}

async function harness(label: string, launch: Launch, app: string, kit: Testkit): Promise<void> {
  const transport = new StdioClientTransport({
    command: launch.command,
    args: launch.args,
    env: cleanEnv(kitEnv(kit)),
    cwd: app,
    stderr: "ignore",
  });
  const client = new Client({ name: "resmon-platform-check", version: "1.0.0" });
  const timer = setTimeout(() => void transport.close(), 90_000);
  try {
    await client.connect(transport);
    const tools = (await client.listTools()).tools.map((t) => t.name);
    const health = await client.callTool({ name: "health", arguments: {} });
    const runtime = (health.structuredContent as { identity?: { runtime_id?: string } } | undefined)?.identity
      ?.runtime_id;
    const ok = tools.length === TOOL_NAMES.length && health.isError !== true && runtime === kit.runtimeId;
    record(
      `harness start: ${label}`,
      ok,
      `${tools.length} of ${TOOL_NAMES.length} tools, health ${runtime === kit.runtimeId ? "reached the stand-in" : "did not reach the stand-in"}`,
    );
  } catch (error) {
    record(`harness start: ${label}`, false, error instanceof Error ? error.message : "failed");
  } finally {
    clearTimeout(timer);
    await client.close().catch(() => undefined);
  }
}

/** The installed bin over a raw pipe, every line ending in CRLF; then stdin closed. */
export async function crlfAndStdinEnd(
  bin: string,
  env: Record<string, string>,
  runtimeId: string,
): Promise<{ ok: boolean; detail: string }> {
  const child = spawn(process.execPath, [bin], { env, stdio: ["pipe", "pipe", "ignore"], windowsHide: true });
  let out = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    out += chunk;
  });
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  const answer = async (id: number): Promise<Record<string, unknown> | undefined> => {
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      for (const line of out.split("\n")) {
        if (!line.includes(`"id":${id}`)) continue;
        const frame = JSON.parse(line) as Record<string, unknown>;
        if (frame.id === id) return frame;
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    return undefined;
  };
  const send = (message: Record<string, unknown>) =>
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\r\n`);
  try {
    send({
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "crlf", version: "0" } },
    });
    const opened = await answer(1);
    send({ method: "notifications/initialized" });
    send({ id: 2, method: "tools/list", params: {} });
    const listed = await answer(2);
    // A line whose CR and LF arrive in two writes.
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "health", arguments: {} } })}\r`,
    );
    child.stdin.write("\n");
    const health = await answer(3);
    const tools = ((listed?.result as { tools?: unknown[] } | undefined)?.tools ?? []).length;
    const healthText = JSON.stringify(health?.result ?? {});
    child.stdin.end();
    const code = await Promise.race([
      exited,
      new Promise<"running">((r) => setTimeout(() => r("running"), 10_000)),
    ]);
    const ok =
      opened?.result !== undefined &&
      tools === TOOL_NAMES.length &&
      healthText.includes(runtimeId) &&
      code === 0;
    return {
      ok,
      detail: `opening ${opened?.result ? "answered" : "not answered"}, ${tools} tools, health ${healthText.includes(runtimeId) ? "answered" : "not answered"}; after stdin closed: ${code === "running" ? "still running after 10 s" : `exit ${code}`}`,
    };
  } finally {
    if (child.exitCode === null) child.kill();
  }
}

async function doctor(app: string, work: string, kit: Testkit): Promise<void> {
  // A script starts npx as this platform's shell does: through cmd.exe on Windows (commands.ts).
  const runIt = (env: Record<string, string>) => run("npx", ["resmon-mcp", "doctor"], { cwd: app, env });
  const found = await runIt(cleanEnv(kitEnv(kit)));
  // Nothing named and no packaged app at any platform default: an empty home on every platform.
  const empty = join(work, "nobody");
  await mkdir(empty, { recursive: true });
  const nothing = await runIt(
    cleanEnv({ HOME: empty, USERPROFILE: empty, LOCALAPPDATA: empty, XDG_STATE_HOME: empty }),
  );
  const all = `${found.stdout}${found.stderr}${nothing.stdout}${nothing.stderr}`;
  const ok =
    found.code === 0 &&
    found.stdout.includes(kit.runtimeId) &&
    nothing.code === 1 &&
    nothing.stdout.includes("Refused (nothing_named)") &&
    !all.includes(kit.token);
  record(
    "npx resmon-mcp doctor",
    ok,
    `exit ${found.code} against the stand-in, exit ${nothing.code} with nothing named${ok ? "" : `: ${lastLines(found.stdout + found.stderr + nothing.stdout)}`}`,
  );
}

export async function main(): Promise<number> {
  if (!existsSync(join(SERVER_DIR, "dist", "resmon-mcp.cjs"))) {
    say("packages/mcp-server/dist/resmon-mcp.cjs is missing: run `pnpm build` first.");
    return 2;
  }
  const started = performance.now();
  say(`platform:check on ${process.platform} ${process.arch}, node ${process.versions.node}`);
  const work = await mkdtemp(join(tmpdir(), "resmon-platform-check-"));
  let kit: Testkit | undefined;
  try {
    const app = join(work, "app");
    await mkdir(join(work, "tarballs"), { recursive: true });
    await mkdir(app, { recursive: true });
    const tgz = await pack(join(work, "tarballs"));
    if (tgz && (await install(app, tgz))) {
      kit = await startTestkit({ stateDir: join(work, "state"), seed: "small" });
      for (const { label, launch } of harnessLaunches(process.platform))
        await harness(label, launch, app, kit);
      const crlf = await crlfAndStdinEnd(join(app, BIN_IN_PACKAGE), cleanEnv(kitEnv(kit)), kit.runtimeId);
      record("the installed bin over a pipe, CRLF line ends; stdin closed ends it", crlf.ok, crlf.detail);
      await doctor(app, work, kit);
    }
  } finally {
    await kit?.stop();
    // On Windows a directory some process still has open (or as its cwd) cannot be removed yet:
    // the checks' outcome stands, and the leftover is said, not thrown.
    await rm(work, { recursive: true, force: true, maxRetries: 5 }).catch((error: unknown) =>
      say(`could not remove ${work}: ${error instanceof Error ? error.message : "error"}`),
    );
  }
  const failed = outcomes.filter((o) => !o.ok);
  say(
    `\nplatform:check: ${outcomes.length - failed.length} passed, ${failed.length} failed (${((performance.now() - started) / 1000).toFixed(0)} s)`,
  );
  return failed.length === 0 && outcomes.length > 0 ? 0 : 1;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename ?? "")) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      say(`platform:check could not run: ${error instanceof Error ? error.message : "error"}`);
      process.exit(1);
    },
  );
}
