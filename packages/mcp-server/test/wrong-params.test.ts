/**
 * Wrong-type params on every method the server serves, in both eras (issue 41 point 7): -32602 naming
 * the field, never -32603 with the schema library's issues as JSON; a method it does not serve is
 * -32601; a progressToken longer than 256 characters is refused, never repeated. The session serves on.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolHost } from "../src/host.js";
import { MAX_PROGRESS_TOKEN } from "../src/request-params.js";
import { serve } from "../src/serve.js";
import { cleanEnv, HAVE_CLI, RawServer } from "./helpers/spawn.js";

type Json = Record<string, unknown>;
const MODERN = "2026-07-28";
const envelope: Json = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};
const CLIENT = { capabilities: {}, clientInfo: { name: "raw", version: "0" } };

/** [method, params with one field of the wrong type, the field -32602 names], for each era. */
const SERVED: [string, Json, string][] = [
  ["tools/list", { _meta: 5 }, "params._meta"],
  ["tools/list", { _meta: { progressToken: { a: 1 } } }, "params._meta.progressToken"],
  ["tools/list", { cursor: 5 }, "params.cursor"],
  ["tools/call", { name: 7, arguments: {} }, "params.name"],
  ["tools/call", { name: "health", arguments: 5 }, "params.arguments"],
  ["prompts/list", { cursor: [] }, "params.cursor"],
  ["prompts/get", { name: 5 }, "params.name"],
  ["prompts/get", { name: "literature_scan", arguments: { question: 5 } }, "params.arguments.question"],
  ["prompts/get", { name: "literature_scan", arguments: "question" }, "params.arguments"],
  ["resources/list", { cursor: 5 }, "params.cursor"],
  ["resources/templates/list", { cursor: true }, "params.cursor"],
  ["resources/read", { uri: 12345 }, "params.uri"],
  ["resources/read", {}, "params.uri"],
];
const LEGACY_ONLY: [string, Json, string][] = [
  ["initialize", { ...CLIENT, protocolVersion: 5 }, "params.protocolVersion"],
  ["initialize", { ...CLIENT, protocolVersion: "2025-11-25", clientInfo: "raw" }, "params.clientInfo"],
  ["ping", { _meta: 5 }, "params._meta"],
  ["ping", { _meta: { progressToken: 1.5 } }, "params._meta.progressToken"],
];
/** Spec methods a client may send that this server does not serve (no such capability). */
const NOT_SERVED = [
  "completion/complete",
  "no/such-method",
  "logging/setLevel",
  "resources/subscribe",
  "resources/unsubscribe",
  "tasks/get",
  "tasks/list",
];

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "resmon-mcp-params-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

for (const era of ["legacy", "modern"] as const) {
  describe.skipIf(!HAVE_CLI)(`wrong-type params, ${era} era`, () => {
    let server: RawServer;
    let id = 100;
    const withMeta = (params: Json): Json =>
      era === "legacy" ? params : { ...params, _meta: { ...envelope, ...(params._meta as Json) } };
    beforeAll(async () => {
      server = new RawServer(
        cleanEnv({ RESMON_STATE_DIR: dir, RESMON_PORT_FILE: join(dir, "none", "resmon.port"), HOME: dir }),
      );
      if (era === "legacy") await server.initialize();
      else expect((await server.request(1, "server/discover", { _meta: envelope })).result).toBeDefined();
    });
    afterAll(async () => server.stop());

    const cases = era === "legacy" ? [...SERVED, ...LEGACY_ONLY] : SERVED;
    it.for(cases)("%s %j: -32602 naming %s, then the session serves on", async ([method, params, field]) => {
      // A _meta that is itself the wrong type stays so in the modern era (no envelope merged in).
      const sent = typeof params._meta === "number" ? params : withMeta(params);
      const frame = await server.request(++id, method, sent);
      const error = frame.error as { code: number; message: string; data?: Json };
      expect(error, JSON.stringify(frame)).toMatchObject({ code: -32602, data: { field } });
      expect(error.message).toContain(field);
      // Said in words, not the schema library's issues as JSON.
      expect(error.message).not.toMatch(/^\[|"code":|\n/);
      const list = await server.request(++id, "tools/list", withMeta({}));
      expect(list.result).toMatchObject({ tools: expect.any(Array) });
    });

    it.skipIf(era === "legacy")(
      "server/discover with a wrong-type envelope key: -32602 (the SDK's envelope check)",
      async () => {
        const frame = await server.request(++id, "server/discover", {
          _meta: { ...envelope, "io.modelcontextprotocol/clientInfo": 5 },
        });
        expect(frame.error).toMatchObject({ code: -32602, message: expect.stringContaining("_meta") });
      },
    );

    it.for(NOT_SERVED)("%s is not served: -32601", async (method) => {
      const frame = await server.request(++id, method, withMeta({ uri: 5, level: 5, ref: 5 }));
      expect((frame.error as { code: number }).code).toBe(-32601);
    });

    it(`a progressToken longer than ${MAX_PROGRESS_TOKEN} characters is refused, and not repeated`, async () => {
      const token = "t".repeat(100_000);
      const frame = await server.request(
        ++id,
        "tools/call",
        withMeta({ name: "health", arguments: {}, _meta: { progressToken: token } }),
      );
      expect(frame.error).toMatchObject({
        code: -32602,
        message: expect.stringContaining("params._meta.progressToken is 100000 characters"),
        data: { field: "params._meta.progressToken" },
      });
      expect(server.stdout).not.toContain("t".repeat(MAX_PROGRESS_TOKEN + 1));
      const fits = await server.request(
        ++id,
        "tools/call",
        withMeta({ name: "health", arguments: {}, _meta: { progressToken: "t".repeat(MAX_PROGRESS_TOKEN) } }),
      );
      expect(fits.result).toBeDefined();
    });
  });
}

describe("only the SDK's own params check is said as wrong params", () => {
  it("a handler's own failure stays -32603, its message untouched; wrong params on the same server -32602", async () => {
    const host = {
      info: { name: "t", version: "0" },
      instructions: "",
      listTools: () => [{ name: "fails", inputSchema: { type: "object" } }],
      callTool: async () => {
        throw new Error("the host broke");
      },
    } as unknown as ToolHost;
    const answers: JSONRPCMessage[] = [];
    const wire: Transport = {
      start: async () => undefined,
      close: async () => undefined,
      send: async (message) => void answers.push(message),
    };
    serve(host, wire);
    const deliver = (message: Json) => wire.onmessage?.({ jsonrpc: "2.0", ...message } as JSONRPCMessage);
    deliver({ id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", ...CLIENT } });
    deliver({ method: "notifications/initialized" });
    deliver({ id: 2, method: "tools/call", params: { name: "fails", arguments: {} } });
    deliver({ id: 3, method: "tools/call", params: { name: 7, arguments: {} } });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const byId = (id: number) => answers.find((a) => "id" in a && a.id === id) as { error?: Json };
    expect(byId(2).error).toEqual({ code: -32603, message: "the host broke" });
    expect(byId(3).error).toMatchObject({ code: -32602, data: { field: "params.name" } });
  });
});
