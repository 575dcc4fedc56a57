/** Starting the server as a harness does: a fresh HOME, its tools listed, health called. */
import { mkdir, symlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { READ_TOOLS, TOOL_NAMES } from "@resmon/mcp-contract";
import type { Testkit } from "@resmon/testkit";
import type { Launch } from "../pack-snippets.js";
import { record } from "./report.js";
import { cleanEnv } from "./run.js";

export function kitEnv(kit: Testkit): Record<string, string> {
  return { RESMON_PORT_FILE: kit.portFile ?? "", RESMON_STATE_DIR: kit.stateDir };
}

/** Start a launch as a harness would, list its tools and call health; the time until tools/list answered. */
export async function startAndList(
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
export async function homeFor(work: string, name: string, kit: Testkit): Promise<string> {
  const home = join(work, "homes", name);
  const state = join(home, ".local", "state", "resmon");
  await mkdir(dirname(state), { recursive: true });
  await symlink(kit.stateDir, state);
  return home;
}

export const sameLaunch = (a: Launch, b: Launch) =>
  a.command === b.command && isDeepStrictEqual(a.args, b.args) && isDeepStrictEqual(a.env, b.env);

export const describeLaunch = (l: Launch) =>
  `${l.command} ${l.args.join(" ")}${Object.keys(l.env).length ? ` with ${Object.keys(l.env).join(", ")}` : " (defaults)"}`;

/** Start a filled-in launch and check tools/list (every tool, or the reads when read-only) and a health call. */
export async function tryLaunch(
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
