import { createServer, type Server } from "node:http";
import type { Client } from "@modelcontextprotocol/client";
import type { Testkit } from "@resmon/testkit";
import { type GroupRun, kitFor, restartKit, tempDir } from "../context.js";
import { callTool, describe, type Outcome } from "../outcome.js";
import { cleanEnv, connectClient } from "../proc.js";
import { GROUP_TITLES } from "../titles.js";

const GROUP = GROUP_TITLES.faults;
const TIMEOUT_MS = 800;
/** A faulted call must answer within the server's timeout plus this. */
const SLACK_MS = 2500;

type Args = Record<string, unknown>;
/** A spread of tools: reads on one and two routes, paged, bound to a runtime, and a write. */
const SPREAD: [string, Args][] = [
  ["health", {}],
  ["search_corpus", { query: "graph", limit: 3 }],
  ["list_routines", {}],
  ["get_routine", { routine_id: 1 }],
  ["get_execution", { exec_id: 1 }],
  ["list_sources", {}],
  ["get_profile_matches", { profile_id: 1, limit: 2 }],
  ["update_settings", { group: "ai", settings: { ai_model: "claude-sonnet-4-5" } }],
];

interface Env {
  client: Client;
  kit: Testkit;
  dir: string;
  port: number;
}

interface Fault {
  name: string;
  expect: readonly string[];
  /** Put the fault in place (may start the call itself via `call`). */
  inject: (env: Env, call: () => Promise<Outcome>) => Promise<Outcome>;
  /** Undo it, so the next call can succeed without restarting the MCP server. */
  recover: (env: Env) => Promise<void>;
}

async function freshKit(env: Env): Promise<void> {
  env.kit = await kitFor({ stateDir: env.dir, port: env.port });
}

async function foreignServer(port: number, kind: "json" | "html404" = "json"): Promise<Server> {
  const server = createServer((_req, res) => {
    if (kind === "html404") {
      res.writeHead(404, { "content-type": "text/html" });
      res.end("<html><body>Not here</body></html>");
      return;
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ hello: "not resmon", items: [] }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return server;
}

const FAULTS: Fault[] = [
  {
    name: "down (at start, then before each tool)",
    expect: ["backend_unavailable"],
    inject: async (env, call) => {
      if (env.kit.port) await env.kit.crash();
      return call();
    },
    recover: freshKit,
  },
  {
    name: "killed mid-call",
    expect: ["backend_unavailable"],
    inject: async (env, call) => {
      env.kit.setFault("*", { kind: "hang" });
      const pending = call();
      await new Promise((r) => setTimeout(r, 150));
      await env.kit.crash();
      return pending;
    },
    recover: freshKit,
  },
  {
    name: `slow beyond the timeout (${TIMEOUT_MS} ms)`,
    expect: ["backend_unavailable"],
    inject: async (env, call) => {
      env.kit.setFault("*", { kind: "delay", ms: TIMEOUT_MS * 4 });
      return call();
    },
    recover: async (env) => env.kit.clearFaults(),
  },
  ...[500, 502, 503].map(
    (status): Fault => ({
      name: `HTTP ${status}`,
      expect: ["upstream_error"],
      inject: async (env, call) => {
        env.kit.setFault("*", { kind: "status", status });
        return call();
      },
      recover: async (env) => env.kit.clearFaults(),
    }),
  ),
  {
    name: "malformed JSON",
    expect: ["upstream_error"],
    inject: async (env, call) => {
      env.kit.setFault("*", { kind: "malformed_json" });
      return call();
    },
    recover: async (env) => env.kit.clearFaults(),
  },
  {
    name: "connection dropped",
    expect: ["backend_unavailable"],
    inject: async (env, call) => {
      env.kit.setFault("*", { kind: "drop_connection" });
      return call();
    },
    recover: async (env) => env.kit.clearFaults(),
  },
  {
    name: "restarted (new token, new runtime id)",
    expect: ["backend_unavailable"],
    inject: async (env, call) => {
      await restartKit(env.kit);
      return call();
    },
    recover: async () => undefined,
  },
  {
    name: "every token refused",
    expect: ["backend_unavailable"],
    inject: async (env, call) => {
      env.kit.refuseAllTokens(true);
      return call();
    },
    recover: async (env) => env.kit.refuseAllTokens(false),
  },
  {
    name: "HTTP 429 (admission)",
    expect: ["conflict"],
    inject: async (env, call) => {
      env.kit.setFault("*", { kind: "status", status: 429, body: { detail: "Too many runs at once." } });
      return call();
    },
    recover: async (env) => env.kit.clearFaults(),
  },
];

/**
 * Each fault the stand-in can inject × a spread of tools, through one MCP server process for the
 * whole group: the expected contract code, within the timeout plus slack, and the next call after
 * recovery succeeds without restarting the server.
 */
export async function backendFaults({ tally, opts }: GroupRun): Promise<void> {
  // The fast subset (pnpm test) crosses every fault with three of the tools.
  const spread = opts.scale < 0.5 ? SPREAD.slice(0, 3) : SPREAD;
  const dir = tempDir("faults");
  // Find a port, then take the stand-in down before the MCP server starts.
  const first = await kitFor({ stateDir: dir });
  await first.crash();
  const { client, proc } = await connectClient(
    "faults",
    cleanEnv({
      RESMON_PORT_FILE: first.portFile ?? "",
      RESMON_STATE_DIR: dir,
      RESMON_MCP_TIMEOUT_MS: String(TIMEOUT_MS),
    }),
  );
  const env: Env = { client, kit: first, dir, port: first.port };
  await client.listTools();
  // The fast subset runs inside `pnpm test`, beside every other package's tests on the same cores.
  const deadline = TIMEOUT_MS + (opts.scale < 0.5 ? SLACK_MS * 2 : SLACK_MS);
  let worst = 0;

  for (const fault of FAULTS) {
    for (const [tool, args] of spread) {
      let problem: string | null = null;
      try {
        const got = await fault.inject(env, () => callTool(client, tool, args, deadline + 5000));
        worst = Math.max(worst, got.ms);
        if (got.kind !== "error" || !fault.expect.includes(got.code)) {
          problem = `expected ${fault.expect.join("|")}, got ${describe(got)}`;
        } else if (got.ms > deadline) problem = `answered in ${Math.round(got.ms)} ms (bound ${deadline} ms)`;
        await fault.recover(env);
        const next = await callTool(client, tool, args, deadline + 5000);
        if (problem === null && next.kind !== "success") problem = `after recovery: ${describe(next)}`;
      } catch (err) {
        problem = `the case threw: ${err instanceof Error ? err.message : String(err)}`;
      }
      if (!proc.alive) problem = `${problem ?? ""} MCP server process exited`;
      tally.record(GROUP, problem === null ? null : `${fault.name} × ${tool}: ${problem}`);
      env.kit.clearFaults();
    }
  }

  tally.record(GROUP, await identityAfterRestart(env));
  tally.record(GROUP, await foreignOnNamedPort(env));
  tally.record(GROUP, await foreignTakesPortMidSession(env));
  tally.note(
    GROUP,
    `${FAULTS.length} faults × ${spread.length} tools + 3, one MCP server process throughout (RESMON_MCP_TIMEOUT_MS=${TIMEOUT_MS}); slowest faulted answer ${Math.round(worst)} ms`,
  );
  await client.close();
  await env.kit.stop();
}

/** A read bound to the runtime before a restart is refused instance_mismatch once resmon is found again. */
async function identityAfterRestart(env: Env): Promise<string | null> {
  const name = "restart × get_execution bound to the old runtime id";
  const old = env.kit.runtimeId;
  await restartKit(env.kit);
  const args = { exec_id: 1, expected_runtime_id: old };
  let got = await callTool(env.client, "get_execution", args, 10_000);
  if (got.kind === "error" && got.code === "backend_unavailable")
    got = await callTool(env.client, "get_execution", args, 10_000);
  if (got.kind !== "error" || got.code !== "instance_mismatch")
    return `${name}: expected instance_mismatch, got ${describe(got)}`;
  const fresh = await callTool(
    env.client,
    "get_execution",
    { exec_id: 1, expected_runtime_id: env.kit.runtimeId },
    10_000,
  );
  return fresh.kind === "success" ? null : `${name}: bound to the new runtime id: ${describe(fresh)}`;
}

/** A non-resmon HTTP server on the named port (resmon gone, its files left): backend_unavailable, reason not_resmon. */
async function foreignOnNamedPort(env: Env): Promise<string | null> {
  const name = "non-resmon server on the named port";
  await env.kit.crash();
  // One call while nothing listens, so the server drops its cached connection and discovers afresh.
  await callTool(env.client, "health", {}, 10_000);
  const foreign = await foreignServer(env.port);
  const problems: string[] = [];
  try {
    for (const [tool, args] of SPREAD) {
      const got = await callTool(env.client, tool, args, 10_000);
      const reason = got.kind === "error" ? (got.body.detail as Record<string, unknown>).reason : undefined;
      if (got.kind !== "error" || got.code !== "backend_unavailable" || reason !== "not_resmon") {
        problems.push(`${tool}: expected backend_unavailable (not_resmon), got ${describe(got)}`);
      }
    }
  } finally {
    await new Promise<void>((resolve) => foreign.close(() => resolve()));
  }
  await freshKit(env);
  const next = await callTool(env.client, "health", {}, 10_000);
  if (next.kind !== "success") problems.push(`after recovery: ${describe(next)}`);
  return problems.length === 0 ? null : `${name}: ${problems.join("; ")}`;
}

/**
 * Another program takes the port while the server holds a connection to resmon and answers bare
 * 404s: the first call may not say not_found as if resmon had no such item; it is
 * backend_unavailable, and the server looks afresh (finding not_resmon) until resmon is back.
 */
async function foreignTakesPortMidSession(env: Env): Promise<string | null> {
  const name = "non-resmon server takes the named port mid-session";
  const warm = await callTool(env.client, "list_routines", {}, 10_000);
  if (warm.kind !== "success") return `${name}: warm-up failed: ${describe(warm)}`;
  await env.kit.crash();
  const foreign = await foreignServer(env.port, "html404");
  const problems: string[] = [];
  try {
    for (const [tool, args] of SPREAD.slice(0, 4)) {
      const got = await callTool(env.client, tool, args, 10_000);
      if (got.kind !== "error" || got.code !== "backend_unavailable") {
        problems.push(`${tool}: expected backend_unavailable, got ${describe(got)}`);
      }
    }
  } finally {
    await new Promise<void>((resolve) => foreign.close(() => resolve()));
  }
  await freshKit(env);
  const next = await callTool(env.client, "list_routines", {}, 10_000);
  if (next.kind !== "success") problems.push(`after recovery: ${describe(next)}`);
  return problems.length === 0 ? null : `${name}: ${problems.join("; ")}`;
}
