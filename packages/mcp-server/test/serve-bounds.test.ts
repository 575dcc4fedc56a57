/**
 * What serve.ts holds back on its way to the SDK's entry (issue 25's bounds, now around the SDK's
 * own transport): at most MAX_OPEN_CALLS tool calls run at once, the rest wait in arrival order; a
 * cancel drops a waiting call unrun; nothing more is handed on while stdout holds MAX_HELD_CHARS
 * unread; and stdin is paused while many messages wait. The whole, under many large answers and a
 * slow reader, is the reliability suite's stdout group (tools/test/reliability/stdout.test.ts).
 */
import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import type { Outcome, ToolHost } from "../src/host.js";
import { MAX_HELD_CHARS, MAX_OPEN_CALLS, serve } from "../src/serve.js";

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

/** A host whose calls end when the test says, and a transport that records what was answered. */
function harness(output = { writableLength: 0 }) {
  const started: string[] = [];
  const finish = new Map<string, () => void>();
  const host: ToolHost = {
    info: { name: "t", version: "0" },
    instructions: "",
    listTools: () => [{ name: "slow", inputSchema: { type: "object" } }],
    callTool: (_name, args) =>
      new Promise<Outcome>((resolve) => {
        const key = String((args as { key: string }).key);
        started.push(key);
        finish.set(key, () => resolve({ ok: true, answer: { key } }));
      }),
    prompts: { list: () => [], get: () => ({}) },
    resources: {
      list: async () => ({}),
      templates: () => [],
      read: (uri) =>
        new Promise((resolve) => {
          started.push(uri);
          const release = () => released.push(uri);
          finish.set(uri, () => resolve({ answer: { contents: [{ uri, text: "evidence" }] }, release }));
        }),
    },
  };
  const released: string[] = [];
  const answered: unknown[] = [];
  const events: string[] = [];
  const wire: Transport = {
    start: async () => undefined,
    close: async () => undefined,
    send: async (message) => void answered.push((message as { id?: unknown }).id),
  };
  serve(host, wire, {
    output,
    input: { pause: () => events.push("pause"), resume: () => events.push("resume") },
  });
  const deliver = (message: Record<string, unknown>) =>
    wire.onmessage?.({ jsonrpc: "2.0", ...message } as JSONRPCMessage);
  deliver({
    id: "init",
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } },
  });
  deliver({ method: "notifications/initialized" });
  const call = (key: string) =>
    deliver({ id: key, method: "tools/call", params: { name: "slow", arguments: { key } } });
  const read = (uri: string) => deliver({ id: uri, method: "resources/read", params: { uri } });
  return { started, finish, answered, events, released, deliver, call, read };
}

describe("serve.ts's bounds around the SDK's entry", () => {
  it("runs at most MAX_OPEN_CALLS calls at once, the rest in arrival order as places free", async () => {
    const h = harness();
    for (let i = 0; i < MAX_OPEN_CALLS + 3; i += 1) h.call(`c${i}`);
    await settle();
    expect(h.started).toEqual(Array.from({ length: MAX_OPEN_CALLS }, (_, i) => `c${i}`));
    h.finish.get("c0")?.();
    await settle();
    expect(h.answered).toContain("c0");
    expect(h.started.at(-1)).toBe(`c${MAX_OPEN_CALLS}`);
  });

  it("counts resources/read with the calls (each reads a file whole): MAX_OPEN_CALLS at once in all", async () => {
    const h = harness();
    const uri = (i: number) => `resmon-scan://r${i}`;
    h.call("c0");
    for (let i = 0; i < MAX_OPEN_CALLS + 2; i += 1) h.read(uri(i));
    await settle();
    expect(h.started).toEqual(["c0", ...Array.from({ length: MAX_OPEN_CALLS - 1 }, (_, i) => uri(i))]);
    h.finish.get(uri(0))?.();
    await settle();
    expect(h.answered).toContain(uri(0));
    expect(h.started.at(-1)).toBe(uri(MAX_OPEN_CALLS - 1));
  });

  it("holds a read's room in the budget until its frame has left, then gives it back", async () => {
    const h = harness();
    h.read("resmon-scan://a");
    await settle();
    expect(h.released).toEqual([]);
    h.finish.get("resmon-scan://a")?.();
    await settle();
    expect(h.answered).toContain("resmon-scan://a");
    expect(h.released).toEqual(["resmon-scan://a"]);
  });

  it("drops a waiting call the client cancelled, unrun and unanswered", async () => {
    const h = harness();
    for (let i = 0; i < MAX_OPEN_CALLS + 2; i += 1) h.call(`c${i}`);
    h.deliver({ method: "notifications/cancelled", params: { requestId: `c${MAX_OPEN_CALLS}` } });
    await settle();
    h.finish.get("c0")?.();
    await settle();
    expect(h.started).not.toContain(`c${MAX_OPEN_CALLS}`);
    expect(h.started.at(-1)).toBe(`c${MAX_OPEN_CALLS + 1}`);
    expect(h.answered).not.toContain(`c${MAX_OPEN_CALLS}`);
  });

  it("hands nothing on while stdout holds MAX_HELD_CHARS unread, and pauses stdin while much waits", async () => {
    const output = { writableLength: MAX_HELD_CHARS };
    const h = harness(output);
    await settle();
    for (let i = 0; i < 300; i += 1) h.deliver({ id: `p${i}`, method: "ping" });
    await settle();
    expect(h.answered.filter((id) => String(id).startsWith("p"))).toEqual([]);
    expect(h.events).toEqual(["pause"]);
  });
});
