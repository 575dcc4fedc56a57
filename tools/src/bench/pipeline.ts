/**
 * The server's own work per tool call, with the backend's answer canned (captured once from the
 * stand-in), so neither HTTP nor a second process is timed. Interleaved call by call: a parsed
 * tools/call through the SDK's serving entry to the answer message serialized, in each protocol era,
 * and the same call through the tool pipeline alone (no protocol layer at all). The gap between the
 * two is the SDK's part of a call in a hot loop (info: over stdio, beside the bridge, percall.ts
 * measures the whole call).
 */
import { createResmonClient } from "@resmon/api-client";
import { createServer, type DiscoverFn } from "@resmon/mcp-server";
import { CASES } from "./percall.js";
import type { BenchBackend } from "./standin.js";
import { median, p99 } from "./stats.js";

type Json = Record<string, unknown>;
type Stat = { median: number; p99: number };

export interface PipelineCase {
  label: string;
  calls: number;
  /** The tool pipeline alone: arguments → answer → the answer frame's JSON. */
  tools: Stat;
  /** Through the SDK, 2025 era (after initialize). */
  legacy: Stat;
  /** Through the SDK, 2026-07-28 era (the request carries its _meta envelope). */
  modern: Stat;
}

const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

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
    within: () => client,
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
  const eras = {
    legacy: createServer({ env: {}, discoverFn }),
    modern: createServer({ env: {}, discoverFn }),
  };
  const { tools } = createServer({ env: {}, discoverFn });
  const waiting = new Map<unknown, () => void>();
  const sessions = {
    legacy: eras.legacy.server.open(async (message) => {
      const id = (message as Json).id;
      JSON.stringify(message);
      waiting.get(id)?.();
    }),
    modern: eras.modern.server.open(async (message) => {
      const id = (message as Json).id;
      JSON.stringify(message);
      waiting.get(id)?.();
    }),
  };
  let id = 0;
  const viaSdk = (era: "legacy" | "modern", line: () => string): Promise<bigint> =>
    new Promise((resolve) => {
      const text = line();
      const start = process.hrtime.bigint();
      const message = JSON.parse(text) as Json;
      waiting.set(message.id, () => {
        waiting.delete(message.id);
        resolve(process.hrtime.bigint() - start);
      });
      sessions[era].deliver(message as never);
    });
  const viaTools = async (line: () => string): Promise<bigint> => {
    const text = line();
    const start = process.hrtime.bigint();
    const message = JSON.parse(text) as { id: number; params: { name: string; arguments: unknown } };
    const outcome = await tools.call(message.params.name, message.params.arguments);
    const body = outcome.ok ? outcome.answer : outcome.error;
    const json = JSON.stringify(body);
    JSON.stringify({
      result: { content: [{ type: "text", text: json }], ...(outcome.ok ? { structuredContent: body } : {}) },
      jsonrpc: "2.0",
      id: message.id,
    });
    return process.hrtime.bigint() - start;
  };
  const request = (method: string, params: Json) => () =>
    JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params });
  await viaSdk(
    "legacy",
    request("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "bench", version: "1" },
    }),
  );
  sessions.legacy.deliver({ jsonrpc: "2.0", method: "notifications/initialized" } as never);
  const out: PipelineCase[] = [];
  try {
    for (const c of CASES) {
      const call = request("tools/call", { name: c.tool, arguments: c.args });
      const modernCall = request("tools/call", { name: c.tool, arguments: c.args, _meta: ENVELOPE });
      const calls = Math.ceil(callsPerCase * c.share);
      const samples = { tools: [] as number[], legacy: [] as number[], modern: [] as number[] };
      for (let i = 0; i < 200 + calls; i += 1) {
        const t = µs(await viaTools(call));
        const l = µs(await viaSdk("legacy", call));
        const m = µs(await viaSdk("modern", modernCall));
        if (i < 200) continue; // warm-up
        samples.tools.push(t);
        samples.legacy.push(l);
        samples.modern.push(m);
      }
      const stat = (xs: number[]) => ({ median: median(xs), p99: p99(xs) });
      out.push({
        label: c.label,
        calls,
        tools: stat(samples.tools),
        legacy: stat(samples.legacy),
        modern: stat(samples.modern),
      });
    }
  } finally {
    for (const { server } of Object.values(eras)) await server.close();
    await tools.close();
  }
  return out;
}
