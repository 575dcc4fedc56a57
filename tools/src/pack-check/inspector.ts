/** Check 4: the MCP Inspector CLI starts the installed server: tools/list (also read-only) and a health call. */
import { READ_TOOLS, TOOL_NAMES } from "@resmon/mcp-contract";
import type { Testkit } from "@resmon/testkit";
import type { Tools } from "../npm-tools.js";
import { kitEnv } from "./launch.js";
import { record } from "./report.js";
import { exec, lastLines } from "./run.js";

export async function inspector(tools: Tools, app: string, kit: Testkit): Promise<void> {
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
