/**
 * The server's own work per tool call, with the backend's answer canned (captured once from the
 * stand-in), so neither HTTP nor a second process is timed. Interleaved call by call: a parsed
 * tools/call through the SDK's serving entry to the answer message serialized, in each protocol era,
 * and the same call through the tool pipeline alone (no protocol layer at all). The gap between the
 * two is the SDK's part of a call in a hot loop (info: over stdio, beside the bridge, percall.ts
 * measures the whole call).
 */
import type { Transport } from "@modelcontextprotocol/server";
import { discover, type ResmonClient } from "@resmon/api-client";
import { createServer, type DiscoverFn } from "@resmon/mcp-server";
import { serverEnv } from "@resmon/testkit";
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

/**
 * A client that answers as the stand-in does, without a request: each (method, path, init) is
 * asked of the real client once and its answer replayed after, so the server under test sees a
 * resmon's real answers (health with its identity, the route list, search results) at no cost.
 */
function replayingClient(real: ResmonClient): ResmonClient {
  const answers = new Map<string, Promise<unknown>>();
  const verb =
    (method: "GET" | "POST" | "PUT" | "DELETE") =>
    (path: string, init?: unknown): Promise<unknown> => {
      const key = `${method} ${path} ${JSON.stringify(init ?? null)}`;
      let answer = answers.get(key);
      if (!answer) {
        answer = (real[method] as (p: string, i?: unknown) => Promise<unknown>)(path, init);
        answers.set(key, answer);
      }
      return answer;
    };
  const client = {
    baseUrl: real.baseUrl,
    port: real.port,
    GET: verb("GET"),
    POST: verb("POST"),
    PUT: verb("PUT"),
    DELETE: verb("DELETE"),
    openApiDocument: () => verb("GET")("/openapi.json", undefined),
    within: () => client,
    close: async () => undefined,
  };
  return client as unknown as ResmonClient;
}

export async function measurePipeline(
  kit: Pick<BenchBackend, "port" | "token" | "stateDir" | "portFile">,
  callsPerCase: number,
): Promise<PipelineCase[]> {
  // A real discovery of the stand-in (its health, identity and all), with the client swapped for
  // one that replays its answers: the pipeline runs the success path, as against a resmon.
  const found = await discover({ env: serverEnv(kit) });
  if (!found.ok) throw new Error(`the stand-in was not found: ${found.refusal.message}`);
  const client = replayingClient(found.client);
  const discoverFn = (async () => ({ ...found, client })) as DiscoverFn;
  const eras = {
    legacy: createServer({ env: {}, discoverFn }),
    modern: createServer({ env: {}, discoverFn }),
  };
  const { tools } = createServer({ env: {}, discoverFn });
  const waiting = new Map<unknown, () => void>();
  // A call that failed measured an error path, not the pipeline: the run says so instead. The
  // session hands each answer over as its frame (serialized and scrubbed), naming its request.
  const failed: string[] = [];
  // A transport in the bench's process: the SDK's entry hands it each answer, serialized here as
  // the stdio transport would.
  const wire = (): Transport => {
    const transport: Transport = {
      start: async () => undefined,
      close: async () => undefined,
      send: async (message) => {
        const frame = JSON.stringify(message);
        if (!("result" in message) || frame.includes('"isError":true')) failed.push(frame.slice(0, 300));
        waiting.get((message as Json).id)?.();
      },
    };
    return transport;
  };
  const wires = { legacy: wire(), modern: wire() };
  eras.legacy.server.serve(wires.legacy);
  eras.modern.server.serve(wires.modern);
  const sessions = {
    legacy: { deliver: (m: Json) => wires.legacy.onmessage?.(m as never) },
    modern: { deliver: (m: Json) => wires.modern.onmessage?.(m as never) },
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
    if (!outcome.ok) failed.push(JSON.stringify(outcome.error).slice(0, 300));
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
    // Every real answer is asked for before any timed loop. A loop runs on replayed answers, in
    // microtasks alone, so no timer or socket event is seen for its whole length: a connection left
    // idle through it was closed by the stand-in unseen, and the next case's first request went out
    // on it ("resmon stopped responding part-way", in full runs on a loaded machine).
    for (const c of CASES) await viaTools(request("tools/call", { name: c.tool, arguments: c.args }));
    for (const c of CASES) {
      const call = request("tools/call", { name: c.tool, arguments: c.args });
      const modernCall = request("tools/call", { name: c.tool, arguments: c.args, _meta: ENVELOPE });
      const calls = Math.ceil(callsPerCase * c.share);
      const samples = { tools: [] as number[], legacy: [] as number[], modern: [] as number[] };
      for (let i = 0; i < 200 + calls; i += 1) {
        const t = µs(await viaTools(call));
        const l = µs(await viaSdk("legacy", call));
        const m = µs(await viaSdk("modern", modernCall));
        if (failed.length > 0) throw new Error(`${c.tool} failed in the pipeline: ${failed[0]}`);
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
    await found.client.close();
  }
  return out;
}
