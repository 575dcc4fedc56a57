/**
 * Issue 12: the tools/call fast path is kept only with an equality test that runs in CI with nothing
 * skipped. Two sessions of the real server (fast path on, and off so the SDK answers every call) get
 * the same generated opening and calls against the same generated backend answers, and every frame
 * must be byte-equal; a spy on the SDK's request dispatch shows which path answered.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Protocol } from "@modelcontextprotocol/server";
import { READ_TOOLS, TOOL_BY_NAME, TOOL_NAMES } from "@resmon/mcp-contract";
import { startTestkit } from "@resmon/testkit";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createFastCalls, isPlainToolCall } from "../src/protocol/fast-call.js";
import { createServer } from "../src/server.js";
import { type FakeReply, fakeDiscover } from "./helpers/fake-backend.js";

type Json = Record<string, unknown>;
type Id = string | number;

/** Every tool but the scan tools, whose answers name their own data directory (the path is tool-agnostic). */
const TOOLS = TOOL_NAMES.filter((n) => !n.startsWith("scan_"));
const LEGACY_REVISIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "1999-01-01"];

/** tools/call requests that reached the SDK's request dispatch (Protocol._onrequest), in this file. */
let sdkToolCalls = 0;
const proto = Protocol.prototype as unknown as { _onrequest: (...args: unknown[]) => unknown };
const realOnRequest = proto._onrequest;
proto._onrequest = function (this: unknown, ...args: unknown[]) {
  if ((args[0] as Json).method === "tools/call") sdkToolCalls += 1;
  return realOnRequest.apply(this, args);
};

interface Peer {
  deliver(message: Json): void;
  /** The frame answering `id`, waited for (never more than 5 s). */
  answer(id: Id): Promise<string>;
  /** Every frame written, in order. */
  frames: string[];
  close(): Promise<void>;
}

/** A session of the real server; `reply` answers its backend requests, else it finds resmon by `env`. */
function peer(fastPath: boolean, reply: (() => FakeReply) | undefined, env: Record<string, string>): Peer {
  const discoverFn = reply ? fakeDiscover(() => reply()).discoverFn : undefined;
  const { server } = createServer({ env, ...(discoverFn ? { discoverFn } : {}), fastPath });
  const frames: string[] = [];
  const session = server.open(async (message) => {
    frames.push(JSON.stringify(message));
  });
  const find = (id: Id) => frames.find((f) => (JSON.parse(f) as Json).id === id);
  return {
    deliver: (message) => session.deliver(message as never),
    frames,
    async answer(id) {
      const started = Date.now();
      for (;;) {
        const found = find(id);
        if (found !== undefined) return found;
        if (Date.now() - started > 5_000) throw new Error(`no answer to ${JSON.stringify(id)}`);
        await new Promise((r) => setTimeout(r, 1));
      }
    },
    close: () => server.close(),
  };
}

const peers: Peer[] = [];
afterEach(async () => {
  for (const p of peers.splice(0)) await p.close();
});

async function openPair(
  revision: string,
  reply: (() => FakeReply) | undefined,
  readOnly: boolean,
  base: Record<string, string> = {},
): Promise<[Peer, Peer]> {
  const env: Record<string, string> = readOnly ? { ...base, RESMON_MCP_READ_ONLY: "1" } : base;
  const pair: [Peer, Peer] = [peer(true, reply, env), peer(false, reply, env)];
  peers.push(...pair);
  const init = {
    jsonrpc: "2.0",
    id: "init",
    method: "initialize",
    params: { protocolVersion: revision, capabilities: {}, clientInfo: { name: "equality", version: "1" } },
  };
  const [fast, sdk] = pair;
  for (const p of pair) p.deliver(init);
  expect(await fast.answer("init")).toBe(await sdk.answer("init"));
  for (const p of pair) p.deliver({ jsonrpc: "2.0", method: "notifications/initialized" });
  return pair;
}

const json = fc.jsonValue({ maxDepth: 3 });
const backendReply: fc.Arbitrary<FakeReply> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      status: fc.constant(200),
      body: fc.oneof(fc.dictionary(fc.string(), json), json),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      status: fc.constantFrom(400, 401, 404, 409, 422, 429, 500, 503),
      body: fc.oneof(
        fc.constant({ detail: "nope" }),
        fc.record({ detail: fc.dictionary(fc.string(), json) }),
        json,
      ),
    }),
  },
  { weight: 1, arbitrary: fc.record({ fail: fc.constantFrom("transport", "timeout", "malformed") }) },
);
const toolName = fc.oneof(
  { weight: 9, arbitrary: fc.constantFrom(...TOOLS) },
  { weight: 1, arbitrary: fc.string() },
);
const args = (name: string) =>
  fc.oneof(
    fc.constant(undefined),
    fc.constant((TOOL_BY_NAME as Record<string, { example?: Json }>)[name]?.example ?? {}),
    fc.dictionary(
      fc.constantFrom("query", "limit", "cursor", "id", "routine_id", "expected_runtime_id", "x"),
      json,
    ),
  );
const id = fc.oneof(fc.string({ maxLength: 8 }), fc.integer({ min: -1e6, max: 1e6 }));
const call = toolName.chain((name) =>
  fc.record({
    name: fc.constant(name),
    arguments: args(name),
    id,
    // What the seam delivers: a progress token, if any, is an id (else the SDK's message check
    // refuses the line); beside it a harness's own keys (a tool-use id) or a reserved one (to the SDK).
    meta: fc.option(
      fc
        .tuple(
          fc.option(fc.oneof(fc.string({ maxLength: 4 }), fc.nat())),
          fc.dictionary(
            fc.constantFrom("claudecode/toolUseId", "x-trace", "__proto__", "io.modelcontextprotocol/x"),
            json,
          ),
        )
        .map(([token, rest]) => (token === null ? rest : { ...rest, progressToken: token })),
      { nil: undefined },
    ),
  }),
);

function callMessage(c: { name: string; arguments: unknown; id: Id; meta?: Json }, at: number): Json {
  const params: Json = { name: c.name };
  if (c.arguments !== undefined) params.arguments = c.arguments;
  if (c.meta !== undefined) params._meta = c.meta;
  return {
    jsonrpc: "2.0",
    id: typeof c.id === "string" ? `${c.id}#${at}` : c.id * 100 + at,
    method: "tools/call",
    params,
  };
}

/** Runs `calls` through both sessions of a pair, one at a time; how many answers were not errors. */
async function sameAnswers(
  pair: [Peer, Peer],
  calls: { message: Json; before?: () => void }[],
): Promise<number> {
  const [fast, sdk] = pair;
  let successes = 0;
  for (const { message, before } of calls) {
    before?.();
    const counted = sdkToolCalls;
    fast.deliver(message);
    const viaFast = await fast.answer(message.id as Id);
    // A plain call never reaches the SDK in the fast session; anything else does.
    const sdkAnswers = isPlainToolCall(message) ? 0 : 1;
    expect(sdkToolCalls - counted, "which path answered the fast session's call").toBe(sdkAnswers);
    sdk.deliver(message);
    const viaSdk = await sdk.answer(message.id as Id);
    expect(sdkToolCalls, "the SDK session's call did not reach the SDK").toBe(counted + sdkAnswers + 1);
    expect(viaFast).toBe(viaSdk);
    if (!(JSON.parse(viaFast) as { result?: { isError?: boolean } }).result?.isError) successes += 1;
  }
  return successes;
}

// The refusals the generated answers provoke are logged (stderr); they are expected here.
beforeEach(() => {
  vi.spyOn(process.stderr, "write").mockImplementation(() => true);
  return () => vi.restoreAllMocks();
});

describe("the tools/call fast path answers byte for byte what the SDK answers", () => {
  it("in every 2025-era revision, full and read-only, for generated calls and backend answers", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...LEGACY_REVISIONS),
        fc.boolean(),
        fc.array(fc.tuple(call, backendReply), { minLength: 1, maxLength: 6 }),
        async (revision, readOnly, calls) => {
          let current: FakeReply = { status: 200, body: {} };
          const pair = await openPair(revision, () => current, readOnly);
          await sameAnswers(
            pair,
            calls.map(([c, reply], index) => ({
              message: callMessage(c, index),
              before: () => (current = reply),
            })),
          );
          await Promise.all(peers.splice(0).map((p) => p.close()));
        },
      ),
      { numRuns: 150, seed: 20261201 },
    );
  }, 120_000);

  it("against the stand-in's real answers: every read tool, its example and generated arguments", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fast-call-"));
    const kit = await startTestkit({ stateDir: dir, seed: "small" });
    const base = { RESMON_PORT_FILE: kit.portFile ?? "", RESMON_STATE_DIR: dir };
    const reads = READ_TOOLS.filter((n) => !n.startsWith("scan_"));
    let successes = 0;
    let total = 0;
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...LEGACY_REVISIONS),
          fc.array(
            fc.constantFrom(...reads).chain((name) =>
              fc.record({
                name: fc.constant(name),
                arguments: fc.oneof(
                  {
                    weight: 3,
                    arbitrary: fc.constant(
                      (TOOL_BY_NAME as Record<string, { example?: Json }>)[name]?.example ?? {},
                    ),
                  },
                  { weight: 1, arbitrary: args(name) },
                ),
                id,
              }),
            ),
            { minLength: 1, maxLength: 5 },
          ),
          async (revision, calls) => {
            const pair = await openPair(revision, undefined, false, base);
            successes += await sameAnswers(
              pair,
              calls.map((c, index) => ({ message: callMessage(c, index) })),
            );
            total += calls.length;
            await Promise.all(peers.splice(0).map((p) => p.close()));
          },
        ),
        { numRuns: 40, seed: 20261202 },
      );
    } finally {
      await kit.stop();
      rmSync(dir, { recursive: true, force: true });
    }
    // The property must have compared real answers, not only refusals.
    expect(successes, `${successes} of ${total} calls answered`).toBeGreaterThan(total / 2);
  }, 120_000);

  it("a cancelled call is answered by neither path", async () => {
    const reply = (): FakeReply => ({ status: 200, body: { version: "1", status: "ok" } });
    const pair = await openPair("2025-11-25", reply, false);
    const before = sdkToolCalls;
    for (const p of pair) {
      // The cancel goes in before the backend's answer can come back (it is awaited, never synchronous).
      p.deliver({
        jsonrpc: "2.0",
        id: 7,
        method: "tools/call",
        params: { name: "list_sources", arguments: {} },
      });
      p.deliver({
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: 7, reason: "user" },
      });
      p.deliver({ jsonrpc: "2.0", id: 8, method: "tools/call", params: { name: "health", arguments: {} } });
    }
    const [fast, sdk] = pair;
    expect(await fast.answer(8)).toBe(await sdk.answer(8));
    expect(sdkToolCalls - before, "only the SDK session's two calls reached the SDK").toBe(2);
    await new Promise((r) => setTimeout(r, 50));
    for (const p of pair) expect(p.frames.some((f) => (JSON.parse(f) as Json).id === 7)).toBe(false);
  });

  it("a 2026-07-28 session and anything but the plain shape go to the SDK", async () => {
    const envelope = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": { name: "equality", version: "1" },
      "io.modelcontextprotocol/clientCapabilities": {},
    };
    const { server } = createServer({
      env: {},
      discoverFn: fakeDiscover(() => ({ status: 200, body: { version: "1" } })).discoverFn,
      fastPath: true,
    });
    const frames: Json[] = [];
    const session = server.open(async (m) => {
      frames.push(m as Json);
    });
    const before = sdkToolCalls;
    session.deliver({
      jsonrpc: "2.0",
      id: 1,
      method: "server/discover",
      params: { _meta: envelope },
    } as never);
    session.deliver({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "health", arguments: {}, _meta: envelope },
    } as never);
    for (let i = 0; i < 500 && !frames.some((f) => f.id === 2); i++)
      await new Promise((r) => setTimeout(r, 2));
    expect(sdkToolCalls).toBe(before + 1);
    expect((frames.find((f) => f.id === 2)?.result as Json | undefined)?.resultType).toBe("complete");
    await server.close();
  });
});

describe("what the fast path takes", () => {
  const plain = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "health", arguments: {} } };
  it("the plain shape only", () => {
    expect(isPlainToolCall(plain)).toBe(true);
    expect(isPlainToolCall({ ...plain, params: { name: "health" } })).toBe(true);
    expect(isPlainToolCall({ ...plain, params: { name: "health", _meta: { progressToken: 3 } } })).toBe(true);
    const harnessMeta = { name: "health", _meta: { "claudecode/toolUseId": "toolu_1" } };
    expect(isPlainToolCall({ ...plain, params: harnessMeta })).toBe(true);
    for (const params of [
      { name: 1 },
      { name: "health", arguments: [] },
      { name: "health", arguments: null },
      { name: "health", arguments: JSON.parse('{"__proto__": {"x": 1}}') },
      { name: "health", task: { ttl: 1 } },
      { name: "health", _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } },
      { name: "health", _meta: { "io.modelcontextprotocol/related-task": { taskId: "t" } } },
      { name: "health", _meta: [] },
      { name: "health", _meta: { progressToken: 1.5 } },
    ]) {
      expect(isPlainToolCall({ ...plain, params }), JSON.stringify(params)).toBe(false);
    }
    expect(isPlainToolCall({ ...plain, id: 1.5 })).toBe(false);
    expect(isPlainToolCall({ ...plain, method: "tools/list" })).toBe(false);
  });

  it("opens only on the SDK's answer to initialize with a 2025-era revision", async () => {
    const sent: Json[] = [];
    const fast = createFastCalls({
      legacyVersions: ["2025-11-25"],
      call: async () => ({ text: "{}", isError: false }),
      send: async (m) => {
        sent.push(m);
      },
      isOpen: () => true,
    });
    expect(fast.take(plain)).toBe(false);
    expect(fast.take({ jsonrpc: "2.0", id: "i", method: "initialize", params: {} })).toBe(false);
    fast.sent({ jsonrpc: "2.0", id: "i", error: { code: -32602, message: "bad" } });
    expect(fast.take(plain)).toBe(false);
    fast.take({ jsonrpc: "2.0", id: "j", method: "initialize", params: {} });
    fast.sent({ jsonrpc: "2.0", id: "j", result: { protocolVersion: "2026-07-28" } });
    expect(fast.take(plain)).toBe(false);
    fast.take({ jsonrpc: "2.0", id: "k", method: "initialize", params: {} });
    fast.sent({ result: { protocolVersion: "2025-11-25" }, jsonrpc: "2.0", id: "k" });
    expect(fast.take(plain)).toBe(true);
    await new Promise((r) => setTimeout(r, 0));
    expect(sent).toEqual([{ result: { content: [{ type: "text", text: "{}" }] }, jsonrpc: "2.0", id: 1 }]);
  });

  it("an answer that cannot be written is reported, never an unhandled rejection", async () => {
    const errors: Error[] = [];
    const fast = createFastCalls({
      legacyVersions: ["2025-11-25"],
      call: async () => ({ text: "{}", isError: false }),
      send: async () => {
        throw new Error("EPIPE");
      },
      isOpen: () => true,
      onError: (e) => errors.push(e),
    });
    fast.take({ jsonrpc: "2.0", id: "k", method: "initialize", params: {} });
    fast.sent({ result: { protocolVersion: "2025-11-25" }, jsonrpc: "2.0", id: "k" });
    expect(fast.take(plain)).toBe(true);
    await new Promise((r) => setTimeout(r, 0));
    expect(errors.map((e) => e.message)).toEqual(["Failed to send response: Error: EPIPE"]);
  });

  it("a host that throws is answered as the SDK answers it", async () => {
    const sent: Json[] = [];
    const fast = createFastCalls({
      legacyVersions: ["2025-11-25"],
      call: async () => {
        throw Object.assign(new Error("boom"), { code: -32001, data: { why: 1 } });
      },
      send: async (m) => {
        sent.push(m);
      },
      isOpen: () => true,
    });
    fast.take({ jsonrpc: "2.0", id: "k", method: "initialize", params: {} });
    fast.sent({ result: { protocolVersion: "2025-11-25" }, jsonrpc: "2.0", id: "k" });
    expect(fast.take(plain)).toBe(true);
    await new Promise((r) => setTimeout(r, 0));
    expect(sent).toEqual([
      { jsonrpc: "2.0", id: 1, error: { code: -32001, message: "boom", data: { why: 1 } } },
    ]);
  });
});
