/**
 * Per-call overhead, throughput and connection reuse of the built server over stdio,
 * against the testkit on loopback. The floor of a tool call is the same backend request made
 * directly with @resmon/api-client (the client the server itself uses) from this process,
 * interleaved call by call, against the same testkit (in a process of its own: standin.ts).
 */
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import type { Socket } from "node:net";
import { createResmonClient, type ResmonClient } from "@resmon/api-client";
import { serverEnv, type Testkit } from "@resmon/testkit";
import type { Launch } from "./coldstart.js";
import { type RpcReply, StdioRpc } from "./rpc.js";
import { type BenchBackend, recordAccepted } from "./standin.js";
import { cpuMs, median, msSince, p99, pairedOverhead } from "./stats.js";

type Json = Record<string, unknown>;

export const SEARCH_QUERY = "model";

export interface CallCase {
  label: string;
  tool: string;
  args: Json;
  /** Share of callsPerCase (the testkit's 100-paper search is slow, so fewer of those). */
  share: number;
  direct: (client: ResmonClient) => Promise<unknown>;
}

export const CASES: CallCase[] = [
  {
    label: "health (small answer)",
    tool: "health",
    args: {},
    share: 1,
    direct: (c) => c.GET("/api/health"),
  },
  {
    label: "search_corpus limit 100 (large answer)",
    tool: "search_corpus",
    args: { query: SEARCH_QUERY, limit: 100 },
    share: 1 / 3,
    // The body the handler sends for a keyword search.
    direct: (c) =>
      c.POST("/api/explorer/search", { body: { query: SEARCH_QUERY, limit: 100, sort: "newest" } }),
  },
];

/**
 * Counts the TCP connections the backend accepts during a phase, split into those this process's
 * own client opened (the direct floor: their local ports, via Node's net diagnostics channel) and
 * the rest (the server under test, a separate process).
 */
export class ConnectionCounter {
  private readonly ownPorts = new Set<number>();
  private readonly onConnect = (message: unknown) => {
    const socket = (message as { socket?: Socket }).socket;
    socket?.once("connect", () => {
      if (socket.localPort !== undefined) this.ownPorts.add(socket.localPort);
    });
  };
  private constructor(
    private readonly backend: BenchBackend,
    private readonly before: number,
  ) {
    subscribe("net.client.socket", this.onConnect);
  }
  static async open(backend: BenchBackend): Promise<ConnectionCounter> {
    return new ConnectionCounter(backend, (await backend.acceptedRemotePorts()).length);
  }
  async dispose(): Promise<{ server: number; direct: number }> {
    unsubscribe("net.client.socket", this.onConnect);
    const accepted = (await this.backend.acceptedRemotePorts()).slice(this.before);
    const direct = accepted.filter((p) => this.ownPorts.has(p)).length;
    return { server: accepted.length - direct, direct };
  }
}

/** A stand-in in this very process, seen through the same interface as one in its own. */
export function inProcessBackend(kit: Testkit): BenchBackend & { dispose(): void } {
  const accepted = recordAccepted(() => kit.port);
  return {
    port: kit.port,
    token: kit.token,
    stateDir: kit.stateDir,
    portFile: kit.portFile,
    clearRequests: () => kit.clearRequests(),
    acceptedRemotePorts: async () => [...accepted.ports],
    dispose: accepted.dispose,
  };
}

function checkReply(reply: RpcReply, tool: string): void {
  const result = reply.message.result as { isError?: boolean } | undefined;
  if (!result || result.isError)
    throw new Error(`${tool} did not succeed in the benchmark: ${reply.line.slice(0, 300)}`);
}

function checkDirect(answer: unknown, tool: string): void {
  if (!(answer as { ok?: boolean }).ok) throw new Error(`the direct request for ${tool} failed`);
}

export interface Overhead {
  label: string;
  calls: number;
  tool: { median: number; p99: number };
  direct: { median: number; p99: number };
  /** Quantile differences: tool − direct at the median and at p99. */
  overhead: { median: number; p99: number };
  answerBytes: number;
  /** CPU time the server process used per call over these calls (user + system). */
  serverCpuMsPerCall: number;
}

export interface Throughput {
  inFlight: number;
  calls: number;
  toolPerSec: number;
  directPerSec: number;
}

export interface PerCallReport {
  overhead: Overhead[];
  throughput: Throughput[];
  /** New TCP connections the testkit accepted: during the interleaved overhead calls (both paths,
   * after warm-up), and during each tool-only throughput batch. */
  sockets: {
    overheadPhase: { server: number; direct: number };
    overheadCalls: number;
    throughputTool: number[];
  };
}

async function runBatch(inFlight: number, total: number, one: () => Promise<void>): Promise<number> {
  let started = 0;
  const start = process.hrtime.bigint();
  const worker = async () => {
    while (started < total) {
      started += 1;
      await one();
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return (total / msSince(start)) * 1000;
}

export async function measurePerCall(
  kit: BenchBackend,
  launch: Launch,
  opts: { callsPerCase: number; throughputCalls: number; overheadOnly?: boolean },
): Promise<PerCallReport> {
  const rpc = new StdioRpc(launch.command, launch.args, serverEnv(kit));
  const client = createResmonClient({ port: kit.port, token: kit.token });
  try {
    await rpc.handshake();
    await rpc.request("tools/list");
    await warmUp(rpc, client);
    const toolSockets = await ConnectionCounter.open(kit);
    const overhead: Overhead[] = [];
    for (const c of CASES) overhead.push(await overheadOf(kit, rpc, client, c, opts.callsPerCase));
    const sockets = {
      overheadPhase: await toolSockets.dispose(),
      overheadCalls: overhead.reduce((sum, o) => sum + o.calls, 0),
      throughputTool: [] as number[],
    };
    if (opts.overheadOnly) return { overhead, throughput: [], sockets };
    const throughput: Throughput[] = [];
    for (const inFlight of [1, 8, 32]) {
      const counter = await ConnectionCounter.open(kit);
      throughput.push(await throughputOf(rpc, client, inFlight, opts.throughputCalls));
      sockets.throughputTool.push((await counter.dispose()).server);
      kit.clearRequests();
    }
    return { overhead, throughput, sockets };
  } finally {
    await client.close();
    await rpc.close();
  }
}

/** Warm up both paths (first discovery, JIT) and check each answers successfully. */
async function warmUp(rpc: StdioRpc, client: ResmonClient): Promise<void> {
  for (const c of CASES) {
    for (let i = 0; i < Math.ceil(100 * c.share); i += 1) {
      checkReply(await rpc.callTool(c.tool, c.args), c.tool);
      checkDirect(await c.direct(client), c.tool);
    }
  }
}

/** One case's calls, each right after the same request made directly: the paired overhead. */
async function overheadOf(
  kit: BenchBackend,
  rpc: StdioRpc,
  client: ResmonClient,
  c: CallCase,
  callsPerCase: number,
): Promise<Overhead> {
  const tool: number[] = [];
  const direct: number[] = [];
  let answerBytes = 0;
  const calls = Math.ceil(callsPerCase * c.share);
  const cpuBefore = await cpuMs(rpc.pid);
  for (let i = 0; i < calls; i += 1) {
    let start = process.hrtime.bigint();
    await c.direct(client);
    direct.push(msSince(start));
    start = process.hrtime.bigint();
    const reply = await rpc.callTool(c.tool, c.args);
    tool.push(msSince(start));
    answerBytes = Buffer.byteLength(reply.line);
    if (i % 1000 === 0) kit.clearRequests();
  }
  return {
    label: c.label,
    calls,
    tool: { median: median(tool), p99: p99(tool) },
    direct: { median: median(direct), p99: p99(direct) },
    overhead: pairedOverhead(tool, direct),
    answerBytes,
    serverCpuMsPerCall: ((await cpuMs(rpc.pid)) - cpuBefore) / calls,
  };
}

/**
 * Health calls `inFlight` at a time, tool and direct: three batches of each, alternating, so a
 * burst of machine noise does not land on one side only.
 */
async function throughputOf(
  rpc: StdioRpc,
  client: ResmonClient,
  inFlight: number,
  calls: number,
): Promise<Throughput> {
  const health = CASES[0] as CallCase;
  const directRates: number[] = [];
  const toolRates: number[] = [];
  for (let round = 0; round < 3; round += 1) {
    directRates.push(
      await runBatch(inFlight, calls, async () => {
        await health.direct(client);
      }),
    );
    toolRates.push(
      await runBatch(inFlight, calls, async () => {
        await rpc.callTool(health.tool, health.args);
      }),
    );
  }
  return { inFlight, calls, toolPerSec: median(toolRates), directPerSec: median(directRates) };
}

export interface SideBySide {
  label: string;
  calls: number;
  /** Overhead medians (tool − direct), all measured in one loop. */
  server: number;
  bridge: number;
  /** Other builds of the bin (`--compare`), in the same loop, by label. */
  compared: Record<string, number>;
}

/**
 * Issue 12's per-call goal, measured fairly: the server, the bridge and any compared build all
 * running, and each iteration makes the direct request and one call through each (in rotating
 * order), so a slower stretch of a shared machine lands on all alike. Measured in separate phases, minutes apart, their
 * differences moved by more than the 0.15 ms goal.
 */
export async function measureSideBySide(
  kit: BenchBackend,
  server: Launch,
  bridge: Launch,
  callsPerCase: number,
  compared: { label: string; launch: Launch }[] = [],
): Promise<SideBySide[]> {
  const env = serverEnv(kit);
  // The server, the bridge, then each compared build: one loop, in rotating order.
  const peers = [
    { name: "server", launch: server },
    { name: "bridge", launch: bridge },
    ...compared.map((c) => ({ name: `compared:${c.label}`, launch: c.launch })),
  ].map(({ name, launch }) => ({ name, rpc: new StdioRpc(launch.command, launch.args, env) }));
  const client = createResmonClient({ port: kit.port, token: kit.token });
  try {
    for (const { rpc } of peers) {
      await rpc.handshake();
      await rpc.request("tools/list");
    }
    const results: SideBySide[] = [];
    for (const c of CASES) {
      for (let i = 0; i < Math.ceil(100 * c.share); i += 1) {
        for (const { rpc } of peers) checkReply(await rpc.callTool(c.tool, c.args), c.tool);
        checkDirect(await c.direct(client), c.tool);
      }
      const direct: number[] = [];
      const via = new Map<string, number[]>(peers.map(({ name }) => [name, []]));
      const calls = Math.ceil(callsPerCase * c.share);
      for (let i = 0; i < calls; i += 1) {
        const start = process.hrtime.bigint();
        await c.direct(client);
        direct.push(msSince(start));
        for (let k = 0; k < peers.length; k += 1) {
          const { name, rpc } = peers[(i + k) % peers.length] as (typeof peers)[number];
          const began = process.hrtime.bigint();
          await rpc.callTool(c.tool, c.args);
          via.get(name)?.push(msSince(began));
        }
        if (i % 1000 === 0) kit.clearRequests();
      }
      const floor = median(direct);
      const overhead = (name: string) => median(via.get(name) ?? []) - floor;
      results.push({
        label: c.label,
        calls,
        server: overhead("server"),
        bridge: overhead("bridge"),
        compared: Object.fromEntries(compared.map(({ label }) => [label, overhead(`compared:${label}`)])),
      });
    }
    return results;
  } finally {
    await client.close();
    for (const { rpc } of peers) await rpc.close();
  }
}
