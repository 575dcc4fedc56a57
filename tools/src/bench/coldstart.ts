/**
 * Cold start: spawn → the answer to tools/list (after initialize), against its floor measured in
 * the same run and interleaved with it: a bare `node` that starts, reads one line on stdin and
 * answers it.
 */
import { spawn } from "node:child_process";
import { StdioPeer } from "@resmon/mcp-server/stdio-peer";
import { INITIALIZE, StdioRpc } from "./rpc.js";
import { median, msSince, p99 } from "./stats.js";

const FLOOR_SCRIPT =
  "process.stdin.setEncoding('utf8');let b='';process.stdin.on('data',d=>{b+=d;if(b.includes('\\n')){process.stdout.write(b);process.exit(0)}})";

export interface Launch {
  command: string;
  args: string[];
}

export const FLOOR: Launch = { command: process.execPath, args: ["-e", FLOOR_SCRIPT] };

/**
 * One spawn of the floor: start → the echoed line. Like every spawn timed here, it resolves only once
 * the process has exited, so no sample shares the machine with the last one's teardown (a server
 * killed just after tools/list may be loading its SDK side, which added up to ~4 ms to the next).
 */
export function floorOnce(env: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(FLOOR.command, FLOOR.args, { stdio: ["pipe", "pipe", "ignore"], env });
    let out = "";
    let ms = 0;
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      out += chunk;
      if (out.includes("\n") && ms === 0) ms = msSince(start);
    });
    child.on("error", reject);
    child.on("exit", () => {
      if (ms === 0) reject(new Error("the floor process exited without answering"));
      else resolve(ms);
    });
    child.stdin.write("ping\n");
  });
}

export type Era = "legacy" | "modern";

const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "resmon-bench", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** What a client of each era sends first: initialize, or server/discover (the 2026-07-28 probe). */
const OPENING: Record<Era, Record<string, unknown>> = {
  legacy: { jsonrpc: "2.0", id: 1, method: "initialize", params: INITIALIZE },
  modern: { jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: ENVELOPE } },
};

/**
 * One spawn of the server: start → the opening answered (initialize, or server/discover) →
 * tools/list answered, as a client of that era does it; with `firstCall`, then a health call too,
 * and the time is spawn → that answer.
 */
export function serverOnce(
  launch: Launch,
  env: Record<string, string>,
  firstCall = false,
  era: Era = "legacy",
): Promise<{ ms: number; listBytes: number }> {
  const params = (extra: object) => (era === "modern" ? { ...extra, _meta: ENVELOPE } : extra);
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const peer = new StdioPeer({ ...launch, env, keepOutput: false, stderr: "ignore" });
    let done = false;
    const finish = (value: { ms: number; listBytes: number } | Error) => {
      if (done) return;
      done = true;
      peer.child.stdin.end();
      peer.child.kill("SIGTERM");
      setTimeout(() => peer.child.kill("SIGKILL"), 5_000).unref();
      // Resolved once the process is gone (floorOnce says why).
      void peer.exited.then(() => (value instanceof Error ? reject(value) : resolve(value)));
    };
    peer.onLine((line) => {
      const answer = JSON.parse(line) as { id?: unknown; error?: { message?: string } };
      if (answer.error) {
        finish(new Error(`the server refused request ${String(answer.id)}: ${answer.error.message ?? ""}`));
        return;
      }
      const id = answer.id;
      if (id === 1) {
        if (era === "legacy") peer.notify("notifications/initialized");
        peer.send({
          id: 2,
          method: "tools/list",
          ...(era === "modern" ? { params: { _meta: ENVELOPE } } : {}),
        });
      } else if (id === 2 && firstCall) {
        peer.send({ id: 3, method: "tools/call", params: params({ name: "health", arguments: {} }) });
      } else if (id === 2 || id === 3) {
        finish({ ms: msSince(start), listBytes: Buffer.byteLength(line) });
      }
    });
    peer.child.on("error", (error) => finish(error));
    void peer.exited.then(() => finish(new Error("the server exited before answering tools/list")));
    peer.send(OPENING[era]);
  });
}

export interface ColdStart {
  floor: { median: number; p99: number; samples: number };
  servers: { label: string; median: number; p99: number; samples: number }[];
}

/**
 * Interleave floor and each server so machine noise lands on all alike, in an order that turns one
 * place each round so none always comes first or after the same other; one unmeasured warm-up each.
 */
export async function measureColdStart(
  launches: { label: string; launch: Launch }[],
  env: Record<string, string>,
  rounds: number,
  era: Era = "legacy",
): Promise<ColdStart> {
  const floor: number[] = [];
  const times = launches.map(() => [] as number[]);
  await floorOnce(env);
  for (const { launch } of launches) await serverOnce(launch, env, false, era);
  const slots = launches.length + 1; // the floor is slot 0
  for (let round = 0; round < rounds; round += 1) {
    for (let turn = 0; turn < slots; turn += 1) {
      const slot = (turn + round) % slots;
      const launch = launches[slot - 1]?.launch;
      if (launch === undefined) floor.push(await floorOnce(env));
      else times[slot - 1]?.push((await serverOnce(launch, env, false, era)).ms);
    }
  }
  return {
    floor: { median: median(floor), p99: p99(floor), samples: floor.length },
    servers: launches.map(({ label }, index) => {
      const samples = times[index] ?? [];
      return { label, median: median(samples), p99: p99(samples), samples: samples.length };
    }),
  };
}

/**
 * Spawn → tools/list → the first tool call (health) answered, interleaved as measureColdStart's
 * rounds are (the order turns one place each round), bare node among them.
 */
export async function measureFirstCall(
  launches: { label: string; launch: Launch }[],
  env: Record<string, string>,
  rounds: number,
  era: Era = "legacy",
): Promise<{ label: string; median: number; floor: number }[]> {
  const floor: number[] = [];
  const times = launches.map(() => [] as number[]);
  const slots = launches.length + 1; // bare node is slot 0
  for (let round = 0; round < rounds; round += 1) {
    for (let turn = 0; turn < slots; turn += 1) {
      const slot = (turn + round) % slots;
      const launch = launches[slot - 1]?.launch;
      if (launch === undefined) floor.push(await floorOnce(env));
      else times[slot - 1]?.push((await serverOnce(launch, env, true, era)).ms);
    }
  }
  return launches.map(({ label }, index) => ({
    label,
    median: median(times[index] ?? []),
    floor: median(floor),
  }));
}

/** How long after the opening the first-call figure's call is made: a harness's first real call. */
export const FIRST_CALL_DELAY_MS = 1_000;
/** Back-to-back calls that warm a server up before its paused steady call is timed. */
const WARM_CALLS = 100;

/** One server's figures for a call after the opening, each a median over the rounds. */
export interface CallAfterOpening {
  label: string;
  /** The first call, FIRST_CALL_DELAY_MS after the opening. */
  median: number;
  samples: number[];
  /** A call of the same warmed process FIRST_CALL_DELAY_MS after its previous call. */
  paused: number;
  /** A call of the same warmed process right after its previous call. */
  backToBack: number;
}

/**
 * A call one second after the opening: spawn, the opening and tools/list as a client of that era
 * sends them, a pause of FIRST_CALL_DELAY_MS, then one health call, timed alone (send → answer).
 * What is still loading when a harness's first real call comes pays here. The same process then
 * makes WARM_CALLS calls back to back (their median: `backToBack`) and one more after the same
 * pause (`paused`): the steady call to hold the first one against, since any process woken after a
 * pause pays for the wake-up whatever it loaded (a minimal bridge measured so: ~4× its own
 * back-to-back call, ~1.1× its paused one).
 */
export async function measureCallAfterOpening(
  launches: { label: string; launch: Launch }[],
  env: Record<string, string>,
  rounds: number,
  era: Era = "legacy",
): Promise<CallAfterOpening[]> {
  const params = (extra: Record<string, unknown>) =>
    era === "modern" ? { ...extra, _meta: ENVELOPE } : extra;
  const pause = () => new Promise((resolve) => setTimeout(resolve, FIRST_CALL_DELAY_MS));
  const once = async (launch: Launch): Promise<{ first: number; paused: number; backToBack: number }> => {
    const rpc = new StdioRpc(launch.command, launch.args, env);
    const timedHealth = async (): Promise<number> => {
      const start = process.hrtime.bigint();
      const reply = await rpc.request("tools/call", params({ name: "health", arguments: {} }));
      const ms = msSince(start);
      const result = reply.message.result as { isError?: boolean } | undefined;
      if (!result || result.isError) throw new Error(`health failed: ${reply.line.slice(0, 300)}`);
      return ms;
    };
    try {
      if (era === "legacy") await rpc.handshake();
      else await rpc.request("server/discover", { _meta: ENVELOPE });
      await rpc.request("tools/list", era === "modern" ? { _meta: ENVELOPE } : undefined);
      await pause();
      const first = await timedHealth();
      const warm: number[] = [];
      for (let i = 0; i < WARM_CALLS; i += 1) warm.push(await timedHealth());
      await pause();
      return { first, paused: await timedHealth(), backToBack: median(warm) };
    } finally {
      await rpc.close();
    }
  };
  const runs = launches.map(() => [] as { first: number; paused: number; backToBack: number }[]);
  for (let round = 0; round < rounds; round += 1) {
    for (const [index, { launch }] of launches.entries()) runs[index]?.push(await once(launch));
  }
  return launches.map(({ label }, index) => {
    const of = runs[index] ?? [];
    return {
      label,
      median: median(of.map((r) => r.first)),
      samples: of.map((r) => r.first),
      paused: median(of.map((r) => r.paused)),
      backToBack: median(of.map((r) => r.backToBack)),
    };
  });
}
