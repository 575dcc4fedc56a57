/**
 * The server's own work per tool call, from a line pushed into its stdio transport to the answer
 * frame written, with the backend's answer canned (captured once from the stand-in), so neither
 * HTTP nor a second process is timed. Each call goes both ways, interleaved: the plain shape every
 * client sends (the transport's fast path) and the same call with an unknown key in its params,
 * which the fast path leaves to the SDK's Protocol (whose schema strips the key). Same build, same answer bytes (fast-call.test.ts).
 */
import { createResmonClient } from "@resmon/api-client";
import { createServer, type DiscoverFn } from "@resmon/mcp-server";
import { CASES } from "./percall.js";
import type { BenchBackend } from "./standin.js";
import { median, p99 } from "./stats.js";

export interface PipelineCase {
  label: string;
  calls: number;
  fast: { median: number; p99: number };
  sdk: { median: number; p99: number };
}

const µs = (ns: bigint) => Number(ns) / 1000;

export async function measurePipeline(
  kit: Pick<BenchBackend, "port" | "token">,
  callsPerCase: number,
): Promise<PipelineCase[]> {
  const real = createResmonClient({ port: kit.port, token: kit.token });
  const canned = new Map<string, unknown>();
  for (const c of CASES) canned.set(c.tool, await c.direct(real));
  await real.close();
  const client = {
    baseUrl: "http://127.0.0.1:1",
    port: 1,
    GET: async () => canned.get("health"),
    POST: async () => canned.get("search_corpus"),
    PUT: async () => ({ ok: false }),
    close: async () => undefined,
  };
  const discoverFn = (async () => ({
    ok: true,
    client,
    baseUrl: client.baseUrl,
    port: 1,
    stateDir: "/nonexistent",
    portSource: "RESMON_PORT",
  })) as unknown as DiscoverFn;
  const { server } = createServer({ env: {}, discoverFn });
  let wake: (() => void) | undefined;
  const output = {
    write: () => {
      wake?.();
      return true;
    },
    once: () => output,
  };
  const transport = await server.connectStdio({ filter: (frame) => frame, output: output as never });
  const exchange = (line: string): Promise<bigint> =>
    new Promise((resolve) => {
      const start = process.hrtime.bigint();
      wake = () => resolve(process.hrtime.bigint() - start);
      transport.push(line);
    });
  await exchange(
    `${JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } } })}\n`,
  );
  const out: PipelineCase[] = [];
  let id = 1;
  try {
    for (const c of CASES) {
      const line = (meta: boolean) => {
        const params = meta
          ? { name: c.tool, arguments: c.args, "x-via-sdk": true }
          : { name: c.tool, arguments: c.args };
        return `${JSON.stringify({ jsonrpc: "2.0", id: id++, method: "tools/call", params })}\n`;
      };
      const calls = Math.ceil(callsPerCase * c.share);
      for (let i = 0; i < 200; i += 1) {
        await exchange(line(false));
        await exchange(line(true));
      }
      const fast: number[] = [];
      const sdk: number[] = [];
      for (let i = 0; i < calls; i += 1) {
        fast.push(µs(await exchange(line(false))));
        sdk.push(µs(await exchange(line(true))));
      }
      out.push({
        label: c.label,
        calls,
        fast: { median: median(fast), p99: p99(fast) },
        sdk: { median: median(sdk), p99: p99(sdk) },
      });
    }
  } finally {
    await server.close();
  }
  return out;
}
