import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { firstDuplicateKey } from "../src/json-duplicate-key.js";
import { createLineReader, invalidMessageAnswer } from "../src/protocol/lines.js";
import { checkMessage } from "../src/protocol/sdk.js";
import { cleanEnv, HAVE_CLI, RawServer } from "./helpers/spawn.js";

type Json = Record<string, unknown>;

/** Feed text through a reader wired to the SDK's check, as the session wires it; collect what comes out. */
function read(...chunks: string[]): { delivered: unknown[]; answered: Json[] } {
  const delivered: unknown[] = [];
  const answered: Json[] = [];
  const reader = createLineReader({
    deliver: (value) => {
      const message = checkMessage(value);
      if (message) return void delivered.push(message);
      const answer = invalidMessageAnswer(value);
      if (answer) answered.push(answer as unknown as Json);
    },
    answer: (error) => answered.push(error as unknown as Json),
  });
  for (const chunk of chunks) reader.push(chunk);
  return { delivered, answered };
}

describe("the stdio line reader (found by pnpm reliability: the SDK's transport drops bad lines silently)", () => {
  it("delivers a valid message parsed", () => {
    const ping = { jsonrpc: "2.0", id: 1, method: "ping" };
    expect(read(`${JSON.stringify(ping)}\n`)).toEqual({ delivered: [ping], answered: [] });
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

describe("a tools/call whose text repeats a key (issue 15: JSON.parse silently keeps the last)", () => {
  it("is refused -32602 naming the key, and never delivered", () => {
    const line =
      '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"health","name":"cancel_execution","arguments":{}}}';
    const { delivered, answered } = read(`${line}\n`);
    expect(delivered).toEqual([]);
    expect(answered).toEqual([
      {
        jsonrpc: "2.0",
        id: 7,
        error: {
          code: -32602,
          message: expect.stringContaining("params.name appears twice"),
          data: { field: "params.name" },
        },
      },
    ]);
  });

  it("finds a repeat in the arguments too, and one spelled with an escape", () => {
    expect(firstDuplicateKey('{"params":{"arguments":{"limit":1,"limit":500}}}')).toBe(
      "params.arguments.limit",
    );
    expect(firstDuplicateKey('{"params":{"name":"a","na\\u006de":"b"}}')).toBe("params.name");
  });

  it("takes equal keys in different objects, keys inside strings, and arrays of objects", () => {
    expect(
      firstDuplicateKey(
        '{"params":{"name":"x \\"name\\": y","arguments":{"name":"n","q":[{"a":1},{"a":2}],"s":"\\\\"}}}',
      ),
    ).toBeUndefined();
    const call = {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "health", arguments: { name: 1 } },
    };
    expect(read(`${JSON.stringify(call)}\n`).delivered).toEqual([call]);
  });

  it("agrees with JSON.parse on generated objects: a repeat exactly when the text has one", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        // JSON.stringify never repeats a key, so any repeat found is a scanner bug.
        expect(firstDuplicateKey(JSON.stringify(value) ?? "null")).toBeUndefined();
      }),
      { numRuns: 2000 },
    );
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
