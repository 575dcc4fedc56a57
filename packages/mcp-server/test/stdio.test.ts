import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CONTRACT_VERSION, TOOLS } from "@resmon/mcp-contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PACKAGE_VERSION } from "../src/version.js";
import { CLI, cleanEnv, HAVE_CLI, RawServer } from "./helpers/spawn.js";

function toolText(frame: Record<string, unknown>): Record<string, unknown> {
  const result = frame.result as { content: { text: string }[]; isError?: boolean };
  return JSON.parse(result.content[0]?.text ?? "{}") as Record<string, unknown>;
}

/** A loopback port nothing listens on (bound, then released). */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

describe.skipIf(!HAVE_CLI)("resmon-mcp over stdio, raw JSON-RPC", () => {
  const dir = mkdtempSync(join(tmpdir(), "resmon-mcp-raw-"));
  const portFile = join(dir, "db", "resmon.port");
  let server: RawServer;

  beforeAll(async () => {
    server = new RawServer(cleanEnv({ RESMON_STATE_DIR: dir, RESMON_PORT_FILE: portFile }));
  });
  afterAll(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("--version prints the package version", () => {
    expect(execFileSync(process.execPath, [CLI, "--version"], { encoding: "utf8" }).trim()).toBe(
      PACKAGE_VERSION,
    );
  });

  it("initialize reports serverInfo resmon, the package version, and the contract version", async () => {
    const frame = await server.initialize();
    const result = frame.result as Record<string, unknown>;
    expect(result.serverInfo).toMatchObject({
      name: "resmon",
      version: PACKAGE_VERSION,
      description: expect.stringContaining(`contract ${CONTRACT_VERSION}`),
    });
    expect(result.instructions).toContain(`contract ${CONTRACT_VERSION}`);
  });

  it("tools/list carries resmon's top-level requires_confirmation on every tool", async () => {
    const frame = await server.request(1, "tools/list");
    const tools = (frame.result as { tools: Record<string, unknown>[] }).tools;
    expect(tools).toHaveLength(TOOLS.length);
    for (const tool of tools) {
      const def = TOOLS.find((t) => t.name === tool.name);
      expect(tool.requires_confirmation).toBe(def?.requiresConfirmation);
      expect(tool._meta).toEqual({ requires_confirmation: def?.requiresConfirmation });
    }
  });

  it("with nothing named: backend_unavailable, tried [] and no_port_named, naming the port file", async () => {
    const frame = await server.request(2, "tools/call", { name: "list_routines", arguments: {} });
    expect((frame.result as { isError?: boolean }).isError).toBe(true);
    const body = toolText(frame);
    expect(body).toMatchObject({ error: "backend_unavailable", tried: [], no_port_named: true });
    expect(body.detail).toMatchObject({ tried: [], no_port_named: true });
    expect(body.message).toContain(portFile);
    expect(body.message).not.toMatch(/not running/);
  });

  it("stdout carries only JSON-RPC frames", () => {
    for (const line of server.stdout.split("\n").filter((l) => l.trim() !== "")) {
      expect(JSON.parse(line)).toMatchObject({ jsonrpc: "2.0" });
    }
  });
});

describe.skipIf(!HAVE_CLI)("a named port that does not answer", () => {
  it("is backend_unavailable saying resmon is not running, with the URL tried, and no other port", async () => {
    const dir = mkdtempSync(join(tmpdir(), "resmon-mcp-dead-"));
    const port = await deadPort();
    writeFileSync(join(dir, `api-token-${port}`), "A".repeat(43), { mode: 0o600 });
    const server = new RawServer(cleanEnv({ RESMON_STATE_DIR: dir, RESMON_PORT: String(port) }));
    try {
      await server.initialize();
      const body = toolText(await server.request(1, "tools/call", { name: "health", arguments: {} }));
      expect(body).toMatchObject({
        error: "backend_unavailable",
        message: "resmon is not running. Start the resmon app and try again.",
        tried: [`http://127.0.0.1:${port}`],
        no_port_named: false,
      });
      expect(server.stdout + server.stderr).not.toContain("A".repeat(43));
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
