import { describe, expect, it } from "vitest";
import { registerSecret } from "../src/scrub.js";
import { createStdioTransport, plainToolCall, type ToolCallOutcome } from "../src/sdk.js";
import { createServer } from "../src/server.js";
import { fakeDiscover } from "./helpers/fake-backend.js";
import { sampleResponder } from "./helpers/sample-backend.js";
import { HAVE_SAMPLES } from "./helpers/samples.js";

type Json = Record<string, unknown>;

/** A stdio server over a fake backend, fed and read in memory. */
async function stdioServer(respond = sampleResponder()) {
  const { server } = createServer({ env: {}, discoverFn: fakeDiscover(respond).discoverFn });
  const frames: string[] = [];
  const waiters: (() => void)[] = [];
  const output = {
    write: (frame: string) => {
      frames.push(frame);
      for (const wake of waiters.splice(0)) wake();
      return true;
    },
    once: () => output,
  };
  const transport = await server.connectStdio({ filter: (f) => f, output: output as never });
  const answerTo = async (id: string | number): Promise<string> => {
    const tail = `"id":${JSON.stringify(id)}}\n`;
    for (;;) {
      const found = frames.find((f) => f.endsWith(tail));
      if (found) return found;
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  transport.push(
    `${JSON.stringify({ jsonrpc: "2.0", id: "init", method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } })}\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n`,
  );
  await answerTo("init");
  return { transport, answerTo, close: () => server.close() };
}

const CALLS: [string, Json | undefined][] = [
  ["health", {}],
  ["health", undefined],
  ["list_sources", {}],
  ["list_routines", {}],
  ["search_corpus", { query: "model", limit: 5 }],
  ["get_routine", { routine_id: 1 }],
  ["get_analytics", { view: "volume" }],
  ["search_corpus", { limit: "many" }],
  ["health", { surprise: true }],
  ["no_such_tool", {}],
];

describe.skipIf(!HAVE_SAMPLES)("a plain tools/call answered by the stdio fast path", () => {
  it("is byte for byte the frame the SDK's Server writes for the same call", async () => {
    const s = await stdioServer();
    try {
      for (const [i, [name, args]] of CALLS.entries()) {
        const params = args === undefined ? { name } : { name, arguments: args };
        // An unknown key in params (which the SDK's schema strips) sends the same call through the
        // SDK's Protocol instead of the fast path.
        s.transport.push(
          `${JSON.stringify({ jsonrpc: "2.0", id: `fast-${i}`, method: "tools/call", params })}\n`,
        );
        s.transport.push(
          `${JSON.stringify({ jsonrpc: "2.0", id: `sdk-${i}`, method: "tools/call", params: { ...params, "x-via-sdk": true } })}\n`,
        );
        const fast = await s.answerTo(`fast-${i}`);
        const sdk = await s.answerTo(`sdk-${i}`);
        expect(fast.replace(`"id":"fast-${i}"`, '"id":0'), name).toBe(
          sdk.replace(`"id":"sdk-${i}"`, '"id":0'),
        );
      }
    } finally {
      await s.close();
    }
  });

  it("takes a call carrying _meta (a progress token, a client's own keys) the same way", async () => {
    const s = await stdioServer();
    try {
      const meta = { progressToken: 5, "vendor.example/trace": "abc" };
      s.transport.push(
        `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "list_sources", _meta: meta } })}\n`,
      );
      s.transport.push(
        '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_sources","x-via-sdk":true}}\n',
      );
      expect((await s.answerTo(1)).replace('"id":1}', "")).toBe((await s.answerTo(2)).replace('"id":2}', ""));
    } finally {
      await s.close();
    }
  });

  it("stays identical when the answer held a secret that was scrubbed", async () => {
    const secret = "fastpath-secret-0123456789abcdef";
    registerSecret(secret);
    const s = await stdioServer(() => ({ status: 200, body: { status: "ok", version: `v ${secret}` } }));
    try {
      s.transport.push('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"health"}}\n');
      s.transport.push(
        '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"health","x-via-sdk":true}}\n',
      );
      const fast = await s.answerTo(1);
      const sdk = await s.answerTo(2);
      expect(fast).not.toContain(secret);
      expect(fast).toContain("<redacted>");
      expect(fast.replace('"id":1}', "")).toBe(sdk.replace('"id":2}', ""));
    } finally {
      await s.close();
    }
  });
});

describe("the fast path's reach", () => {
  it("takes only tools/call requests of the plain shape", () => {
    expect(
      plainToolCall({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "health" } }),
    ).toEqual({
      id: 1,
      name: "health",
      args: undefined,
    });
    for (const params of [
      { name: "health", _meta: { "io.modelcontextprotocol/related-task": { taskId: "t" } } },
      { name: "health", _meta: [] },
      { name: "health", "x-via-sdk": true },
      { name: "health", task: { ttl: 1 } },
      { name: 3 },
      { name: "health", arguments: [] },
      { name: "health", arguments: null },
    ]) {
      expect(
        plainToolCall({ jsonrpc: "2.0", id: 1, method: "tools/call", params }),
        JSON.stringify(params),
      ).toBe(undefined);
    }
    expect(plainToolCall({ jsonrpc: "2.0", method: "tools/call", params: { name: "health" } })).toBe(
      undefined,
    );
    expect(plainToolCall({ jsonrpc: "2.0", id: 1, method: "tools/list" })).toBe(undefined);
  });

  function harness(callTool: (name: string, args: unknown) => Promise<ToolCallOutcome>) {
    const written: string[] = [];
    const transport = createStdioTransport(
      (f) => f,
      { write: (f: string) => written.push(f) > 0, once: () => undefined } as never,
      callTool,
    );
    const toSdk: unknown[] = [];
    transport.onmessage = (m) => toSdk.push(m);
    return { transport, written, toSdk };
  }

  it("answers a plain call without the SDK, and hands it everything else", async () => {
    const h = harness(async (name) => ({
      text: `{"tool":"${name}"}`,
      structured: { tool: name },
      isError: false,
    }));
    await h.transport.start();
    h.transport.push(
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"health","arguments":{}}}\n',
    );
    h.transport.push('{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
    h.transport.push(
      '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"health","_meta":{"progressToken":"p"}}}\n',
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(h.toSdk).toEqual([{ jsonrpc: "2.0", id: 2, method: "ping" }]);
    expect(h.written).toHaveLength(2);
    h.written.pop();
    expect(h.written).toEqual([
      '{"result":{"content":[{"type":"text","text":"{\\"tool\\":\\"health\\"}"}],"structuredContent":{"tool":"health"}},"jsonrpc":"2.0","id":1}\n',
    ]);
  });

  it("drops the answer to a call the client cancelled, as the SDK does", async () => {
    let finish: (() => void) | undefined;
    const h = harness(
      () =>
        new Promise((resolve) => {
          finish = () => resolve({ text: "{}", structured: {}, isError: false });
        }),
    );
    await h.transport.start();
    h.transport.push('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"health"}}\n');
    h.transport.push('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}\n');
    finish?.();
    await new Promise((resolve) => setImmediate(resolve));
    expect(h.written).toEqual([]);
    // The cancellation still reaches the SDK (for any call it runs itself).
    expect(h.toSdk).toHaveLength(1);
  });

  it("answers -32603 rather than nothing if the tool host ever rejected", async () => {
    const h = harness(() => Promise.reject(new Error("bug")));
    await h.transport.start();
    h.transport.push('{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"health"}}\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(h.written.map((f) => JSON.parse(f))).toEqual([
      { jsonrpc: "2.0", id: "x", error: { code: -32603, message: "Internal error" } },
    ]);
  });
});
