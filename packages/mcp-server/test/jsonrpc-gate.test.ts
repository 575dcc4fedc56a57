import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { jsonRpcLineGate } from "../src/sdk.js";
import { cleanEnv, HAVE_CLI, RawServer } from "./helpers/spawn.js";

/** Feed lines through the gate; collect what it passes on and what it answers. */
async function gate(input: string): Promise<{ passed: string; answered: Record<string, unknown>[] }> {
  const answered: Record<string, unknown>[] = [];
  const g = jsonRpcLineGate((frame) => answered.push(JSON.parse(frame) as Record<string, unknown>));
  let passed = "";
  g.on("data", (chunk: Buffer | string) => {
    passed += chunk.toString();
  });
  const done = new Promise<void>((resolve) => g.on("end", resolve));
  g.end(input);
  await done;
  return { passed, answered };
}

describe("the JSON-RPC line gate in front of the SDK's stdio transport (found by pnpm reliability)", () => {
  it("passes valid messages through unchanged", async () => {
    const ping = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
    expect(await gate(`${ping}\n`)).toEqual({ passed: `${ping}\n`, answered: [] });
  });

  it("answers a line that is not JSON with -32700 and id null", async () => {
    const { passed, answered } = await gate("{not json\n");
    expect(passed).toBe("");
    expect(answered).toEqual([{ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } }]);
  });

  it("answers an invalid request with -32600, echoing a usable id", async () => {
    const { answered } = await gate('{"jsonrpc":"2.0","id":"p","method":"tools/call","params":[1]}\n[]\n');
    expect(answered.map((a) => [a.id, (a.error as { code: number }).code])).toEqual([
      ["p", -32600],
      [null, -32600],
    ]);
  });

  it("drops a malformed response from the client without answering it", async () => {
    expect((await gate('{"jsonrpc":"2.0","result":1}\n')).answered).toEqual([]);
  });

  it("drops a line over 10 MiB and answers -32600 instead of ending the session", async () => {
    const ping = '{"jsonrpc":"2.0","id":2,"method":"ping"}';
    const { passed, answered } = await gate(`${"x".repeat(11 * 1024 * 1024)}\n${ping}\n`);
    expect(passed).toBe(`${ping}\n`);
    expect(answered).toHaveLength(1);
    expect(answered[0]).toMatchObject({ id: null, error: { code: -32600 } });
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
