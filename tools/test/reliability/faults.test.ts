/**
 * Backend faults: each fault the stand-in can inject × a spread of tools, through one MCP server
 * process for the whole group: the expected contract code within the timeout plus slack, and the
 * next call after recovery succeeds without restarting the server.
 */
import { existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { Client } from "@modelcontextprotocol/client";
import { cleanEnv, type Testkit } from "@resmon/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAULT_SPREAD } from "../../src/reliability/calls.js";
import { kitFor, restartKit, tempDir } from "../../src/reliability/context.js";
import { accountForEveryByte } from "../../src/reliability/lifecycle.js";
import { callTool, describe as describeOutcome, type Outcome } from "../../src/reliability/outcome.js";
import { connectClient, SERVER_CLI, type ServerProcess } from "../../src/reliability/proc.js";
import { note } from "../../src/reliability/record.js";
import { FAST } from "../../src/reliability/scale.js";

const TIMEOUT_MS = 800;
/** A faulted call must answer within the server's timeout plus this (doubled in the fast subset, beside other tests). */
const SLACK_MS = FAST ? 5000 : 2500;
const DEADLINE_MS = TIMEOUT_MS + SLACK_MS;

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

const clearFaults = async (env: Env) => env.kit.clearFaults();

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
    recover: clearFaults,
  },
  ...[500, 502, 503].map(
    (status): Fault => ({
      name: `HTTP ${status}`,
      expect: ["upstream_error"],
      inject: async (env, call) => {
        env.kit.setFault("*", { kind: "status", status });
        return call();
      },
      recover: clearFaults,
    }),
  ),
  {
    name: "malformed JSON",
    expect: ["upstream_error"],
    inject: async (env, call) => {
      env.kit.setFault("*", { kind: "malformed_json" });
      return call();
    },
    recover: clearFaults,
  },
  {
    name: "connection dropped",
    expect: ["backend_unavailable"],
    inject: async (env, call) => {
      env.kit.setFault("*", { kind: "drop_connection" });
      return call();
    },
    recover: clearFaults,
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
    recover: clearFaults,
  },
];

async function foreignServer(port: number, kind: "json" | "html404"): Promise<Server> {
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

const closeServer = (s: Server) => new Promise<void>((resolve) => s.close(() => resolve()));

// The fast subset (pnpm test) crosses every fault with three of the tools.
const SPREAD = FAST ? FAULT_SPREAD.slice(0, 3) : FAULT_SPREAD;

describe.skipIf(!existsSync(SERVER_CLI))("backend faults, one MCP server process throughout", () => {
  const env = {} as Env;
  let proc: ServerProcess;
  let slowest = 0;
  beforeAll(async () => {
    env.dir = tempDir("faults");
    // Find a port, then take the stand-in down before the MCP server starts.
    env.kit = await kitFor({ stateDir: env.dir });
    env.port = env.kit.port;
    await env.kit.crash();
    ({ client: env.client, proc } = await connectClient(
      "faults",
      cleanEnv({
        RESMON_PORT_FILE: env.kit.portFile ?? "",
        RESMON_STATE_DIR: env.dir,
        RESMON_MCP_TIMEOUT_MS: String(TIMEOUT_MS),
      }),
    ));
    await env.client.listTools();
  }, 30_000);
  afterAll(async () => {
    await env.client?.close();
    await env.kit?.stop();
  });

  const cases = FAULTS.flatMap((fault) => SPREAD.map(([tool, args]) => [fault, tool, args] as const));
  it.for(cases.map(([f, tool, args]) => [`${f.name} × ${tool}`, f, tool, args] as const))(
    "%s: the expected code in time, then the next call succeeds",
    { timeout: 30_000 },
    async ([, fault, tool, args]) => {
      try {
        const got = await fault.inject(env, () => callTool(env.client, tool, args, DEADLINE_MS + 5000));
        slowest = Math.max(slowest, got.ms);
        expect(got.kind === "error" && fault.expect.includes(got.code), describeOutcome(got)).toBe(true);
        expect(got.ms, `answered in ${Math.round(got.ms)} ms`).toBeLessThanOrEqual(DEADLINE_MS);
        await fault.recover(env);
        const next = await callTool(env.client, tool, args, DEADLINE_MS + 5000);
        expect(describeOutcome(next), "after recovery").toBe("success");
        expect(proc.alive, "MCP server process alive").toBe(true);
      } finally {
        env.kit.clearFaults();
      }
    },
  );

  it("a read bound to the runtime before a restart is refused instance_mismatch", async () => {
    const old = env.kit.runtimeId;
    await restartKit(env.kit);
    const args = { exec_id: 1, expected_runtime_id: old };
    let got = await callTool(env.client, "get_execution", args, 10_000);
    if (got.kind === "error" && got.code === "backend_unavailable")
      got = await callTool(env.client, "get_execution", args, 10_000);
    expect(got.kind === "error" && got.code === "instance_mismatch", describeOutcome(got)).toBe(true);
    const fresh = await callTool(
      env.client,
      "get_execution",
      { exec_id: 1, expected_runtime_id: env.kit.runtimeId },
      10_000,
    );
    expect(describeOutcome(fresh), "bound to the new runtime id").toBe("success");
  }, 30_000);

  it("a non-resmon HTTP server on the named port: backend_unavailable, reason not_resmon", async () => {
    await env.kit.crash();
    // One call while nothing listens, so the server drops its cached connection and discovers afresh.
    await callTool(env.client, "health", {}, 10_000);
    const foreign = await foreignServer(env.port, "json");
    const problems: string[] = [];
    try {
      for (const [tool, args] of FAULT_SPREAD) {
        const got = await callTool(env.client, tool, args, 10_000);
        const reason = got.kind === "error" ? (got.body.detail as Record<string, unknown>).reason : undefined;
        if (got.kind !== "error" || got.code !== "backend_unavailable" || reason !== "not_resmon")
          problems.push(`${tool}: expected backend_unavailable (not_resmon), got ${describeOutcome(got)}`);
      }
    } finally {
      await closeServer(foreign);
    }
    await freshKit(env);
    const next = await callTool(env.client, "health", {}, 10_000);
    if (next.kind !== "success") problems.push(`after recovery: ${describeOutcome(next)}`);
    expect(problems).toEqual([]);
  }, 60_000);

  // Another program takes the port while the server holds a connection to resmon and answers bare
  // 404s: not not_found (as if resmon had no such item) but backend_unavailable, until resmon is back.
  it("a non-resmon server takes the named port mid-session: backend_unavailable, never not_found", async (ctx) => {
    const warm = await callTool(env.client, "list_routines", {}, 10_000);
    expect(describeOutcome(warm), "warm-up").toBe("success");
    await env.kit.crash();
    const foreign = await foreignServer(env.port, "html404");
    const problems: string[] = [];
    try {
      for (const [tool, args] of FAULT_SPREAD.slice(0, 4)) {
        const got = await callTool(env.client, tool, args, 10_000);
        if (got.kind !== "error" || got.code !== "backend_unavailable")
          problems.push(`${tool}: expected backend_unavailable, got ${describeOutcome(got)}`);
      }
    } finally {
      await closeServer(foreign);
    }
    await freshKit(env);
    const next = await callTool(env.client, "list_routines", {}, 10_000);
    if (next.kind !== "success") problems.push(`after recovery: ${describeOutcome(next)}`);
    note(
      ctx,
      `${FAULTS.length} faults × ${SPREAD.length} of the tools + 3, RESMON_MCP_TIMEOUT_MS=${TIMEOUT_MS}; slowest faulted answer ${Math.round(slowest)} ms (bound ${DEADLINE_MS} ms)`,
    );
    expect(problems).toEqual([]);
  }, 60_000);

  accountForEveryByte();
});
