/**
 * The server's start-up front (packages/mcp-server/src/protocol/front.ts) answers a session's
 * opening from the SDK's answers recorded at build time, before the SDK is loaded. These tests hold
 * the front to what the SDK answers now, byte for byte, through the built bin, in both protocol
 * eras: the same session is run once through the front and once with a first message the front
 * does not take (which hands everything to the SDK). `pnpm check` holds the recording itself to the
 * SDK (packages/mcp-server/gen-first-answers.mjs --check).
 */
import { describe, expect, it } from "vitest";
import { builtServer } from "../src/bench/launch.js";
import { INITIALIZE, StdioRpc } from "../src/bench/rpc.js";

function env(extra: Record<string, string> = {}): Record<string, string> {
  // A port nothing listens on: initialize and tools/list never need the backend.
  return { PATH: process.env.PATH ?? "", RESMON_PORT: "9", ...extra };
}

async function session(opts: { pingFirst: boolean; protocolVersion: string; readOnly?: boolean }) {
  const { command, args } = builtServer();
  const rpc = new StdioRpc(command, args, env(opts.readOnly ? { RESMON_MCP_READ_ONLY: "1" } : {}));
  try {
    if (opts.pingFirst) await rpc.request("ping");
    const init = await rpc.request("initialize", { ...INITIALIZE, protocolVersion: opts.protocolVersion });
    rpc.notify("notifications/initialized");
    const list = await rpc.request("tools/list");
    const call = await rpc.callTool("list_sources", {});
    const ping = await rpc.request("ping");
    return { init: init.line, list: list.line, call: call.message, ping: ping.message, frames: rpc.frames };
  } finally {
    await rpc.close();
  }
}

const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "resmon-bench", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": { roots: { listChanged: true } },
};

async function modernSession(opts: { sdkFirst: boolean; readOnly?: boolean }) {
  const { command, args } = builtServer();
  const rpc = new StdioRpc(command, args, env(opts.readOnly ? { RESMON_MCP_READ_ONLY: "1" } : {}));
  try {
    // A vendor key in the envelope: the SDK takes it, the front leaves such a request to the SDK.
    if (opts.sdkFirst)
      await rpc.request("server/discover", { _meta: { ...ENVELOPE, "com.example/trace": "x" } });
    const discover = await rpc.request("server/discover", { _meta: ENVELOPE });
    const list = await rpc.request("tools/list", { _meta: ENVELOPE });
    const call = await rpc.request("tools/call", { name: "list_sources", arguments: {}, _meta: ENVELOPE });
    return { discover: discover.line, list: list.line, call: call.message, frames: rpc.frames };
  } finally {
    await rpc.close();
  }
}

describe("the start-up front, 2026-07-28 era", () => {
  for (const readOnly of [false, true]) {
    it(`answers server/discover and tools/list exactly as the SDK does${readOnly ? " (read-only)" : ""}`, async () => {
      const front = await modernSession({ sdkFirst: false, readOnly });
      const sdk = await modernSession({ sdkFirst: true, readOnly });
      const strip = (line: string) => line.replace(/,"id":\d+\}$/, "}");
      expect(strip(front.discover)).toBe(strip(sdk.discover));
      expect(strip(front.list)).toBe(strip(sdk.list));
      expect(front.call.result).toBeDefined();
      expect(front.frames).toBe(3);
      expect(sdk.frames).toBe(4);
    }, 30_000);
  }
});

describe("the start-up front, 2025 era", () => {
  for (const [protocolVersion, readOnly] of [
    ["2025-06-18", false],
    ["2025-11-25", true],
    ["2025-03-26", false],
    ["2024-11-05", true],
    ["1999-01-01", false],
  ] as const) {
    it(`answers exactly what the SDK path answers (protocol ${protocolVersion}${readOnly ? ", read-only" : ""})`, async () => {
      const front = await session({ pingFirst: false, protocolVersion, readOnly });
      const sdk = await session({ pingFirst: true, protocolVersion, readOnly });
      // ids differ by one (the ping), so compare with the id taken out.
      const strip = (line: string) => line.replace(/,"id":\d+\}$/, "}");
      expect(strip(front.init)).toBe(strip(sdk.init));
      expect(strip(front.list)).toBe(strip(sdk.list));
      // After the hand-over the SDK serves the session; its answer to the replayed initialize is
      // dropped, so the client saw exactly one answer per request.
      expect(front.call.result).toBeDefined();
      expect(front.ping).toMatchObject({ result: {} });
      expect(front.frames).toBe(4);
      expect(sdk.frames).toBe(5);
    }, 30_000);
  }
});
