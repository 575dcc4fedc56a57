/**
 * Both protocol eras from one process over stdio (issue 12): the v2 SDK Client in its three
 * negotiation modes, and raw JSON-RPC for what a client library hides. Where the SDK and the
 * specification disagree, the test names the clause of the 2026-07-28 schema it follows.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, type VersionNegotiationMode } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { CONTRACT_VERSION, TOOLS } from "@resmon/mcp-contract";
import { startTestkit, type Testkit } from "@resmon/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PACKAGE_VERSION } from "../src/version.js";
import { parsed } from "./helpers/mcp.js";
import { CLI, cleanEnv, HAVE_CLI, RawServer } from "./helpers/spawn.js";

type Json = Record<string, unknown>;

const MODERN = "2026-07-28";
const envelope = (version = MODERN): Json => ({
  "io.modelcontextprotocol/protocolVersion": version,
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "0" },
  "io.modelcontextprotocol/clientCapabilities": {},
});

let kit: Testkit;
let dir: string;
const env = (extra: Record<string, string> = {}) =>
  cleanEnv({ RESMON_PORT_FILE: kit.portFile ?? "", RESMON_STATE_DIR: dir, ...extra });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "resmon-mcp-eras-"));
  kit = await startTestkit({ stateDir: dir, seed: "small" });
}, 30_000);
afterAll(async () => {
  await kit?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function session(mode: VersionNegotiationMode | undefined, readOnly: boolean) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI],
    env: env(readOnly ? { RESMON_MCP_READ_ONLY: "1" } : {}),
  });
  const client = new Client(
    { name: "eras", version: "0" },
    mode === undefined ? {} : { versionNegotiation: { mode } },
  );
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    const health = await client.callTool({ name: "health", arguments: {} });
    const sources = await client.callTool({ name: "list_sources", arguments: {} });
    // A routine that does not exist: the same answer however often it is asked.
    const write = await client.callTool({ name: "deactivate_routine", arguments: { routine_id: 987654 } });
    return {
      era: client.getProtocolEra(),
      server: client.getServerVersion(),
      instructions: client.getInstructions(),
      tools,
      health: parsed(health),
      sources: parsed(sources),
      write: { isError: write.isError === true, body: parsed(write) },
    };
  } finally {
    await client.close();
  }
}

const MODES: [string, VersionNegotiationMode | undefined, "legacy" | "modern"][] = [
  ["default (legacy)", undefined, "legacy"],
  ["auto", "auto", "modern"],
  [`pinned to ${MODERN}`, { pin: MODERN }, "modern"],
];

describe.skipIf(!HAVE_CLI)("the v2 SDK Client over stdio, in each negotiation mode", () => {
  for (const readOnly of [false, true]) {
    it(`sees the same surface, identity and answers in every mode${readOnly ? " (read-only)" : ""}`, async () => {
      const seen = [];
      for (const [, mode, era] of MODES) {
        const s = await session(mode, readOnly);
        expect(s.era).toBe(era);
        seen.push(s);
      }
      const [first, ...others] = seen;
      if (!first) throw new Error("no session");
      expect(first.server).toMatchObject({ name: "resmon", version: PACKAGE_VERSION });
      expect(first.instructions).toContain(`contract ${CONTRACT_VERSION}`);
      expect(first.tools).toHaveLength(
        readOnly ? TOOLS.filter((t) => t.kind === "read").length : TOOLS.length,
      );
      for (const tool of first.tools) {
        const def = TOOLS.find((t) => t.name === tool.name);
        expect(tool._meta).toEqual({ requires_confirmation: def?.requiresConfirmation });
      }
      expect(first.health).toMatchObject({ identity: expect.any(Object) });
      // The read-only switch refuses the write before its arguments are looked at, in both eras.
      const refusedReadOnly = (first.write.body.detail as Json | undefined)?.read_only === true;
      expect(refusedReadOnly).toBe(readOnly);
      for (const other of others) {
        expect(other.server).toEqual(first.server);
        expect(other.instructions).toBe(first.instructions);
        expect(other.tools).toEqual(first.tools);
        expect(other.sources).toEqual(first.sources);
        expect(other.write).toEqual(first.write);
        // health's answer carries the time it was asked; the rest is the same.
        expect(Object.keys(other.health).sort()).toEqual(Object.keys(first.health).sort());
      }
    }, 60_000);
  }
});

describe.skipIf(!HAVE_CLI)("raw JSON-RPC, 2026-07-28 era", () => {
  let server: RawServer;
  beforeAll(() => {
    server = new RawServer(env());
  });
  afterAll(async () => {
    await server.stop();
  });

  it("server/discover names the revision served, the tools capability, identity and instructions", async () => {
    const frame = await server.request(1, "server/discover", { _meta: envelope() });
    expect(frame.result).toMatchObject({
      supportedVersions: [MODERN],
      capabilities: { tools: {} },
      instructions: expect.stringContaining(`contract ${CONTRACT_VERSION}`),
      resultType: "complete",
      _meta: {
        "io.modelcontextprotocol/serverInfo": {
          name: "resmon",
          version: PACKAGE_VERSION,
          description: expect.stringContaining(`contract ${CONTRACT_VERSION}`),
        },
      },
    });
  });

  it("docs/protocol.md names every capability server/discover answers, and no other", async () => {
    const doc = readFileSync(join(import.meta.dirname, "..", "..", "..", "docs", "protocol.md"), "utf8");
    const said = /`server\/discover` answers [\s\S]*?`capabilities: \{([^`]*)\}`/.exec(doc)?.[1];
    expect(said, "docs/protocol.md's server/discover capabilities").toBeDefined();
    const named = [...(said ?? "").matchAll(/(\w+): \{\}/g)].map((m) => m[1]).sort();
    const frame = await server.request(90, "server/discover", { _meta: envelope() });
    const served = Object.keys((frame.result as { capabilities: Json }).capabilities).sort();
    expect(named).toEqual(served);
    expect(served).toContain("prompts");
  });

  it("tools/list carries resmon's top-level requires_confirmation, as in the 2025 era", async () => {
    const frame = await server.request(2, "tools/list", { _meta: envelope() });
    const tools = (frame.result as { tools: Json[] }).tools;
    expect(tools).toHaveLength(TOOLS.length);
    for (const tool of tools) {
      expect(tool.requires_confirmation).toBe(TOOLS.find((t) => t.name === tool.name)?.requiresConfirmation);
    }
  });

  it("a request missing its _meta is refused -32602 (RequestParams: `_meta: RequestMetaObject`, required)", async () => {
    const frame = await server.request(3, "tools/list", {});
    expect(frame.error).toMatchObject({ code: -32602, message: expect.stringContaining("_meta") });
  });

  it("a request naming an unserved revision mid-session gets UnsupportedProtocolVersionError -32022", async () => {
    // Schema 2026-07-28, RequestMetaObject["io.modelcontextprotocol/protocolVersion"]: "If the server
    // does not support the requested version, it MUST return an UnsupportedProtocolVersionError"
    // (UNSUPPORTED_PROTOCOL_VERSION = -32022). The SDK's stdio entry checks only a session's first
    // message and would list the tools here.
    const frame = await server.request(4, "tools/list", { _meta: envelope("2099-01-01") });
    expect(frame.error).toEqual({
      code: -32022,
      message: expect.any(String),
      data: { supported: [MODERN], requested: "2099-01-01" },
    });
  });
});

describe.skipIf(!HAVE_CLI)("raw JSON-RPC, the opening", () => {
  it("a first request naming an unknown revision gets -32022 listing the supported ones", async () => {
    const server = new RawServer(env());
    try {
      const frame = await server.request(1, "server/discover", { _meta: envelope("2030-01-01") });
      expect(frame.error).toMatchObject({
        code: -32022,
        data: { supported: [MODERN], requested: "2030-01-01" },
      });
    } finally {
      await server.stop();
    }
  });

  for (const protocolVersion of ["2025-11-25", "2025-06-18", "2025-03-26"]) {
    it(`the legacy handshake at ${protocolVersion}: that revision, then every tool and a call`, async () => {
      const server = new RawServer(env());
      try {
        const init = await server.request(1, "initialize", {
          protocolVersion,
          capabilities: {},
          clientInfo: { name: "raw", version: "0" },
        });
        expect(init.result).toMatchObject({
          protocolVersion,
          capabilities: { tools: {} },
          serverInfo: {
            name: "resmon",
            version: PACKAGE_VERSION,
            description: expect.stringContaining(`contract ${CONTRACT_VERSION}`),
          },
        });
        server.send({ method: "notifications/initialized" });
        const list = await server.request(2, "tools/list");
        expect((list.result as { tools: unknown[] }).tools).toHaveLength(TOOLS.length);
        const call = await server.request(3, "tools/call", { name: "list_sources", arguments: {} });
        expect((call.result as { isError?: boolean }).isError).toBeUndefined();
      } finally {
        await server.stop();
      }
    }, 20_000);
  }

  it("a modern opening is refused a later initialize (the session's era is fixed by its opening)", async () => {
    const server = new RawServer(env());
    try {
      await server.request(1, "tools/list", { _meta: envelope() });
      const init = await server.request(2, "initialize", {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "raw", version: "0" },
      });
      expect(init.error).toMatchObject({ code: -32022 });
    } finally {
      await server.stop();
    }
  });

  it("eras are not mixed: after server/discover, initialize is -32022 and a call without _meta -32602", async () => {
    // Found by a red team (issue 34): the SDK's entry takes a server/discover as a probe it may fall
    // back from, so `initialize` then served the 2025 era and calls without an envelope ran.
    const server = new RawServer(env());
    try {
      const discover = await server.request(1, "server/discover", { _meta: envelope() });
      expect(discover.result).toMatchObject({ supportedVersions: [MODERN] });
      const init = await server.request(2, "initialize", {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "raw", version: "0" },
      });
      expect(init.error).toMatchObject({
        code: -32022,
        data: { supported: [MODERN], requested: "2025-11-25" },
      });
      server.send({ method: "notifications/initialized" });
      const call = await server.request(3, "tools/call", { name: "list_sources", arguments: {} });
      expect(call.error).toMatchObject({ code: -32602, message: expect.stringContaining("_meta") });
      // The session is still the 2026-07-28 one it opened as.
      const listed = await server.request(4, "tools/list", { _meta: envelope() });
      expect((listed.result as { tools: unknown[] }).tools).toHaveLength(TOOLS.length);
    } finally {
      await server.stop();
    }
  });

  it("a raw tools/call repeating its name key is refused, before any request reaches resmon", async () => {
    const server = new RawServer(env());
    try {
      await server.initialize();
      // The session under way (a ping hands it to the SDK), and the start-up probe's request made.
      await server.request(4, "ping");
      await server.probed();
      const before = kit.requests.length;
      server.child.stdin.write(
        '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"list_sources","name":"cancel_execution","arguments":{"execution_id":1}}}\n',
      );
      const frame = await server.request(6, "ping");
      expect(frame.result).toEqual({});
      const refused = server.frames().find((f) => f.id === 5);
      expect(refused?.error).toMatchObject({ code: -32602, data: { field: "params.name" } });
      expect(kit.requests.length).toBe(before);
    } finally {
      await server.stop();
    }
  });
});
