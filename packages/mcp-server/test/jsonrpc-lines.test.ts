import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { createLineReader, isPlainRequestOrNotification } from "../src/jsonrpc-lines.js";
import { createStdioTransport } from "../src/sdk.js";
import { cleanEnv, HAVE_CLI, RawServer } from "./helpers/spawn.js";

type Json = Record<string, unknown>;

/** Feed text through a reader wired to the SDK's schema; collect what it delivers and answers. */
function read(...chunks: string[]): { delivered: unknown[]; answered: Json[]; validated: number } {
  const delivered: unknown[] = [];
  const answered: Json[] = [];
  let validated = 0;
  const reader = createLineReader({
    validate: (value) => {
      validated += 1;
      const parsed = JSONRPCMessageSchema.safeParse(value);
      return parsed.success ? parsed.data : undefined;
    },
    deliver: (message) => delivered.push(message),
    answer: (frame) => answered.push(JSON.parse(frame) as Json),
  });
  for (const chunk of chunks) reader.push(chunk);
  return { delivered, answered, validated };
}

describe("the stdio line reader (found by pnpm reliability: the SDK's transport drops bad lines silently)", () => {
  it("delivers a valid message parsed, without a schema pass for the usual shape", () => {
    const ping = { jsonrpc: "2.0", id: 1, method: "ping" };
    expect(read(`${JSON.stringify(ping)}\n`)).toEqual({ delivered: [ping], answered: [], validated: 0 });
  });

  it("joins a line split across chunks, and takes CRLF", () => {
    const call = { jsonrpc: "2.0", id: "a", method: "tools/call", params: { name: "health", arguments: {} } };
    const text = JSON.stringify(call);
    expect(read(text.slice(0, 10), text.slice(10, 30), `${text.slice(30)}\r\n`).delivered).toEqual([call]);
  });

  it("checks a message outside the usual shape with the SDK's schema", () => {
    const withMeta = {
      jsonrpc: "2.0",
      id: 2,
      method: "ping",
      params: { _meta: { "io.modelcontextprotocol/related-task": { taskId: "t" } } },
    };
    const result = read(
      `${JSON.stringify(withMeta)}\n${JSON.stringify({ jsonrpc: "2.0", id: 4, result: {} })}\n`,
    );
    expect(result.delivered).toEqual([withMeta, { jsonrpc: "2.0", id: 4, result: {} }]);
    expect(result.validated).toBe(2);
  });

  it("answers a line that is not JSON with -32700 and id null", () => {
    const { delivered, answered } = read("{not json\n");
    expect(delivered).toEqual([]);
    expect(answered).toEqual([{ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } }]);
  });

  it("answers an invalid request with -32600, echoing a usable id", () => {
    const { answered } = read('{"jsonrpc":"2.0","id":"p","method":"tools/call","params":[1]}\n[]\n');
    expect(answered.map((a) => [a.id, (a.error as { code: number }).code])).toEqual([
      ["p", -32600],
      [null, -32600],
    ]);
  });

  it("drops a malformed response from the client without answering it", () => {
    expect(read('{"jsonrpc":"2.0","result":1}\n').answered).toEqual([]);
  });

  it("drops a line over 10 MiB and answers -32600 instead of ending the session", () => {
    const ping = { jsonrpc: "2.0", id: 2, method: "ping" };
    const big = "x".repeat(1024 * 1024);
    const { delivered, answered } = read(
      ...Array.from({ length: 11 }, () => big),
      `\n${JSON.stringify(ping)}\n`,
    );
    expect(delivered).toEqual([ping]);
    expect(answered).toHaveLength(1);
    expect(answered[0]).toMatchObject({ id: null, error: { code: -32600 } });
  });
});

describe("the fast check accepts only what the SDK's JSONRPCMessageSchema accepts, unchanged", () => {
  const id = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.constant(null), fc.boolean());
  const params = fc.oneof(
    fc.dictionary(fc.string(), fc.jsonValue()),
    fc.record({ _meta: fc.jsonValue() }),
    fc.record({
      _meta: fc.record(
        {
          progressToken: fc.oneof(fc.string(), fc.integer(), fc.double(), fc.constant(null), fc.boolean()),
          "io.modelcontextprotocol/related-task": fc.oneof(
            fc.record({ taskId: fc.string() }),
            fc.jsonValue(),
          ),
          other: fc.jsonValue(),
        },
        { requiredKeys: [] },
      ),
      name: fc.string(),
    }),
    fc.array(fc.jsonValue()),
    fc.constant(null),
  );
  const message = fc.record(
    {
      jsonrpc: fc.oneof(fc.constant("2.0"), fc.constant("1.0"), fc.integer()),
      id,
      method: fc.oneof(fc.string(), fc.integer()),
      params,
      result: fc.jsonValue(),
      extra: fc.jsonValue(),
    },
    { requiredKeys: [] },
  );
  // Mostly well-formed messages, so the fast check's own branches (params, _meta) are reached often.
  const nearlyValid = fc.record(
    { jsonrpc: fc.constant("2.0"), id, method: fc.string(), params },
    { requiredKeys: ["jsonrpc", "method"] },
  );

  it("holds over generated messages and arbitrary JSON", () => {
    fc.assert(
      fc.property(fc.oneof(message, nearlyValid, fc.jsonValue()), (value) => {
        // Through JSON, as the reader sees it.
        const parsed: unknown = JSON.parse(JSON.stringify(value) ?? "null");
        if (!isPlainRequestOrNotification(parsed)) return;
        const checked = JSONRPCMessageSchema.safeParse(parsed);
        expect(checked.success).toBe(true);
        expect(checked.data).toEqual(parsed);
      }),
      { numRuns: 5000 },
    );
    // About 0.6 s alone; the spawn-heavy files beside it in a full run can slow it several-fold.
  }, 30_000);

  it("is not vacuous: it accepts the usual requests and notifications", () => {
    expect(isPlainRequestOrNotification({ jsonrpc: "2.0", id: 1, method: "tools/list" })).toBe(true);
    expect(isPlainRequestOrNotification({ jsonrpc: "2.0", method: "notifications/initialized" })).toBe(true);
    expect(isPlainRequestOrNotification({ jsonrpc: "2.0", id: 2 ** 60, method: "ping" })).toBe(false);
    // Found by this property test: the schema's copy drops an own "__proto__" key.
    expect(
      isPlainRequestOrNotification(JSON.parse('{"jsonrpc":"2.0","method":"x","params":{"__proto__":0}}')),
    ).toBe(false);
    const withMeta = (meta: unknown) => ({ jsonrpc: "2.0", id: 1, method: "x", params: { _meta: meta } });
    expect(isPlainRequestOrNotification(withMeta({ progressToken: 2, "vendor/key": [1] }))).toBe(true);
    expect(isPlainRequestOrNotification(withMeta({ progressToken: 1.5 }))).toBe(false);
    expect(
      isPlainRequestOrNotification(withMeta({ "io.modelcontextprotocol/related-task": { taskId: "t" } })),
    ).toBe(false);
  });
});

describe("the stdio transport", () => {
  it("writes every frame through the filter and skips a frame the filter empties", async () => {
    const written: string[] = [];
    const output = { write: (s: string) => written.push(s) > 0, once: () => output };
    const transport = createStdioTransport(
      (frame) => (frame.includes('"drop"') ? "" : frame.replace("secret", "<redacted>")),
      output as never,
    );
    const received: unknown[] = [];
    transport.onmessage = (message) => received.push(message);
    transport.push('{"jsonrpc":"2.0","id":0,"method":"ping"}\n'); // before start: not taken
    await transport.start();
    transport.push('{"jsonrpc":"2.0","id":1,"method":"ping"}\n{bad\n');
    await transport.send({ jsonrpc: "2.0", id: 1, result: { note: "secret" } });
    await transport.send({ jsonrpc: "2.0", id: "drop", result: {} });
    expect(received).toEqual([{ jsonrpc: "2.0", id: 1, method: "ping" }]);
    expect(written).toEqual([
      `${JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } })}\n`,
      `${JSON.stringify({ jsonrpc: "2.0", id: 1, result: { note: "<redacted>" } })}\n`,
    ]);
  });
});

describe.skipIf(!HAVE_CLI)("over stdio", () => {
  const dir = mkdtempSync(join(tmpdir(), "resmon-mcp-gate-"));
  const server = new RawServer(
    cleanEnv({ RESMON_STATE_DIR: dir, RESMON_PORT_FILE: join(dir, "resmon.port") }),
  );
  afterAll(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("a malformed line draws -32700 and the server keeps serving", async () => {
    await server.initialize();
    server.child.stdin.write("{oops\n");
    const pong = await server.request(9, "ping");
    expect(pong).toMatchObject({ id: 9, result: {} });
    expect(
      server.frames().some((f) => f.id === null && (f.error as { code?: number })?.code === -32700),
    ).toBe(true);
  });
});
