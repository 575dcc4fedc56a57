/**
 * Build-time code (nothing the server runs imports this folder). Records the opening answers of the real server (createServer over the SDK's serveStdio), in both
 * eras, full and read-only, for the start-up front to give before the SDK is loaded. Run by
 * gen-first-answers.mjs at build time (it writes generated/first-answers.ts) and by `pnpm check`
 * (which fails when the SDK would now answer differently from what is committed).
 */

import {
  type JSONRPCMessage,
  LEGACY_FALLBACK_VERSION,
  LEGACY_PROTOCOL_VERSIONS,
  MODERN_PROTOCOL_VERSIONS,
} from "../protocol/sdk.js";
import { createServer } from "../server.js";

type Json = Record<string, unknown>;

/** A frame as the stdio seam writes it, cut just before its id: the front appends the id and "}". */
function prefixOf(message: JSONRPCMessage, id: number): string {
  const frame = JSON.stringify(message);
  const tail = `"id":${id}}`;
  if (!frame.endsWith(tail) || "error" in message) {
    throw new Error(`the SDK's answer is not a result frame ending in its id: ${frame.slice(0, 200)}`);
  }
  return frame.slice(0, -String(id).length - 1);
}

/** One session of the real server: send requests, get each answer. */
async function withSession<T>(
  readOnly: boolean,
  run: (request: (message: Json) => Promise<JSONRPCMessage>, notify: (message: Json) => void) => Promise<T>,
): Promise<T> {
  const { server } = createServer({ env: readOnly ? { RESMON_MCP_READ_ONLY: "1" } : {} });
  const waiting = new Map<unknown, (message: JSONRPCMessage) => void>();
  const session = server.open(
    {
      write: (frame) => {
        const message = JSON.parse(frame) as JSONRPCMessage & { id?: unknown };
        waiting.get(message.id)?.(message);
        waiting.delete(message.id);
      },
      ended: () => undefined,
    },
    [],
  );
  try {
    return await run(
      (message) =>
        new Promise((resolve) => {
          waiting.set(message.id, resolve);
          session.deliver({ jsonrpc: "2.0", ...message } as JSONRPCMessage);
        }),
      (message) => session.deliver({ jsonrpc: "2.0", ...message } as JSONRPCMessage),
    );
  } finally {
    await server.close();
  }
}

const CLIENT = { name: "resmon-mcp-recorder", version: "0" };
const ENVELOPE = (version: string) => ({
  "io.modelcontextprotocol/protocolVersion": version,
  "io.modelcontextprotocol/clientInfo": CLIENT,
  "io.modelcontextprotocol/clientCapabilities": {},
});
/** A revision no era has, to record what initialize answers to one it does not serve. */
const UNKNOWN_VERSION = "1999-01-01";

async function legacyInitialize(readOnly: boolean, protocolVersion: string): Promise<string> {
  return withSession(readOnly, async (request) =>
    prefixOf(
      await request({
        id: 1,
        method: "initialize",
        params: { protocolVersion, capabilities: {}, clientInfo: CLIENT },
      }),
      1,
    ),
  );
}

/**
 * A tools/list frame cut around its tools array, which both eras answer alike: the front keeps one
 * copy of that array's JSON and puts each era's frame back together around it.
 */
function aroundTools(message: JSONRPCMessage, id: number): { tools: string; around: [string, string] } {
  const prefix = prefixOf(message, id);
  const tools = JSON.stringify((message as unknown as { result: { tools: unknown } }).result.tools);
  const at = prefix.indexOf(tools);
  if (at < 0 || prefix.indexOf(tools, at + 1) >= 0)
    throw new Error("tools/list's frame does not hold its tools once");
  return { tools, around: [prefix.slice(0, at), prefix.slice(at + tools.length)] };
}

async function legacyToolsList(readOnly: boolean) {
  return withSession(readOnly, async (request, notify) => {
    await request({
      id: 1,
      method: "initialize",
      params: { protocolVersion: LEGACY_FALLBACK_VERSION, capabilities: {}, clientInfo: CLIENT },
    });
    notify({ method: "notifications/initialized" });
    return aroundTools(await request({ id: 2, method: "tools/list" }), 2);
  });
}

async function modern(readOnly: boolean, version: string) {
  return withSession(readOnly, async (request) => ({
    discover: prefixOf(
      await request({ id: 1, method: "server/discover", params: { _meta: ENVELOPE(version) } }),
      1,
    ),
    toolsList: aroundTools(
      await request({ id: 2, method: "tools/list", params: { _meta: ENVELOPE(version) } }),
      2,
    ),
  }));
}

async function recordFor(readOnly: boolean) {
  const initialize: Record<string, string> = {};
  for (const version of LEGACY_PROTOCOL_VERSIONS)
    initialize[version] = await legacyInitialize(readOnly, version);
  const [version, ...others] = MODERN_PROTOCOL_VERSIONS;
  if (version === undefined || others.length > 0) {
    // One modern revision today; a second would need its answers recorded per revision.
    throw new Error(
      `expected exactly one modern protocol revision, the SDK serves ${MODERN_PROTOCOL_VERSIONS.join(", ")}`,
    );
  }
  const legacyList = await legacyToolsList(readOnly);
  const { discover, toolsList: modernList } = await modern(readOnly, version);
  if (modernList.tools !== legacyList.tools) throw new Error("the two eras list different tools");
  return {
    tools: legacyList.tools,
    legacy: {
      initialize,
      initializeOther: await legacyInitialize(readOnly, UNKNOWN_VERSION),
      toolsList: legacyList.around,
    },
    modern: { discover, toolsList: modernList.around },
  };
}

/** Everything the front answers with, as it goes into generated/first-answers.ts. */
export async function recordOpenings() {
  const full = await recordFor(false);
  const readOnly = await recordFor(true);
  return {
    modernVersions: [...MODERN_PROTOCOL_VERSIONS],
    tools: { full: full.tools, readOnly: readOnly.tools },
    legacy: { full: full.legacy, readOnly: readOnly.legacy },
    modern: { full: full.modern, readOnly: readOnly.modern },
  };
}
