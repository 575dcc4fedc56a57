import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { firstDuplicateKey } from "../src/json-duplicate-key.js";
import { stdinLines } from "../src/stdin-lines.js";
import { cleanEnv, HAVE_CLI, RawServer } from "./helpers/spawn.js";

type Json = Record<string, unknown>;

/** Feed text through stdin's line filter, as the bin wires it before the SDK's transport; collect what comes out. */
async function read(...chunks: string[]): Promise<{ delivered: unknown[]; answered: Json[] }> {
  const answered: Json[] = [];
  const lines = stdinLines((error) => answered.push(error as unknown as Json));
  let out = "";
  lines.setEncoding("utf8");
  lines.on("data", (text: string) => {
    out += text;
  });
  const ended = new Promise((resolve) => lines.on("end", resolve));
  for (const chunk of chunks) lines.write(Buffer.from(chunk));
  lines.end();
  await ended;
  const delivered = out
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as unknown);
  return { delivered, answered };
}

describe("stdin's line filter before the SDK's transport (found by pnpm reliability: its reader drops bad lines silently)", () => {
  it("delivers a valid message parsed", async () => {
    const ping = { jsonrpc: "2.0", id: 1, method: "ping" };
    expect(await read(`${JSON.stringify(ping)}\n`)).toEqual({ delivered: [ping], answered: [] });
  });

  it("joins a line split across chunks, and takes CRLF", async () => {
    const call = { jsonrpc: "2.0", id: "a", method: "tools/call", params: { name: "health", arguments: {} } };
    const text = JSON.stringify(call);
    expect((await read(text.slice(0, 10), text.slice(10, 30), `${text.slice(30)}\r\n`)).delivered).toEqual([
      call,
    ]);
  });

  it("checks a message outside the usual shape with the SDK's schema", async () => {
    const withMeta = {
      jsonrpc: "2.0",
      id: 2,
      method: "ping",
      params: { _meta: { "io.modelcontextprotocol/related-task": { taskId: "t" } } },
    };
    const result = await read(
      `${JSON.stringify(withMeta)}\n${JSON.stringify({ jsonrpc: "2.0", id: 4, result: {} })}\n`,
    );
    expect(result.delivered).toEqual([withMeta, { jsonrpc: "2.0", id: 4, result: {} }]);
  });

  it("answers a line that is not JSON with -32700 and id null", async () => {
    const { delivered, answered } = await read("{not json\n");
    expect(delivered).toEqual([]);
    expect(answered).toEqual([{ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } }]);
  });

  it("answers an invalid request with -32600, echoing a usable id", async () => {
    const { answered } = await read('{"jsonrpc":"2.0","id":"p","method":"tools/call","params":[1]}\n[]\n');
    expect(answered.map((a) => [a.id, (a.error as { code: number }).code])).toEqual([
      ["p", -32600],
      [null, -32600],
    ]);
  });

  it("drops a malformed response from the client without answering it", async () => {
    expect((await read('{"jsonrpc":"2.0","result":1}\n')).answered).toEqual([]);
  });

  it("drops a line over 10 MiB and answers -32600 instead of ending the session", async () => {
    const ping = { jsonrpc: "2.0", id: 2, method: "ping" };
    const big = "x".repeat(1024 * 1024);
    const { delivered, answered } = await read(
      ...Array.from({ length: 11 }, () => big),
      `\n${JSON.stringify(ping)}\n`,
    );
    expect(delivered).toEqual([ping]);
    expect(answered).toHaveLength(1);
    expect(answered[0]).toMatchObject({ id: null, error: { code: -32600 } });
  });
});

describe("a tools/call whose text repeats a key (issue 15: JSON.parse silently keeps the last)", () => {
  it("is refused -32602 naming the key, and never delivered", async () => {
    const line =
      '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"health","name":"cancel_execution","arguments":{}}}';
    const { delivered, answered } = await read(`${line}\n`);
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

  it("finds a repeat in the arguments too, and one spelled with an escape", async () => {
    expect(firstDuplicateKey('{"params":{"arguments":{"limit":1,"limit":500}}}')).toBe(
      "params.arguments.limit",
    );
    expect(firstDuplicateKey('{"params":{"name":"a","na\\u006de":"b"}}')).toBe("params.name");
  });

  it("takes equal keys in different objects, keys inside strings, and arrays of objects", async () => {
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
    expect((await read(`${JSON.stringify(call)}\n`)).delivered).toEqual([call]);
  });

  it("agrees with JSON.parse on generated objects: a repeat exactly when the text has one", async () => {
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
