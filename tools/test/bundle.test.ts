/**
 * The Claude Desktop bundle's own pieces, without the mcpb CLI (pack-check builds, validates,
 * unpacks and starts the real .mcpb): the manifest's settings reach the server's variables, and
 * launch.mjs turns what Claude Desktop substitutes into what the server reads.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { READ_TOOLS, TOOL_NAMES } from "@resmon/mcp-contract";
import { startTestkit, type Testkit } from "@resmon/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleManifest, firstSentence, stageBundle } from "../src/bundle.js";

/** What Claude Desktop leaves in the env for a setting the user left empty: `${user_config.<key>}`. */
const unset = (key: string) => `$\{user_config.${key}}`;

let dir = "";
let stage = "";
let kit: Testkit;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "resmon-bundle-test-"));
  stage = join(dir, "stage");
  await stageBundle(stage);
  kit = await startTestkit({ stateDir: join(dir, "state"), seed: "small" });
});
afterAll(async () => {
  await kit.stop();
  await rm(dir, { recursive: true, force: true });
});

/** The tools the staged bundle lists, started with this environment (as Claude Desktop would). */
async function listWith(env: Record<string, string>): Promise<{ tools: string[]; healthOk: boolean }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(stage, "server", "launch.mjs")],
    env: { PATH: process.env.PATH ?? "", HOME: join(dir, "nobody"), ...env },
    stderr: "ignore",
  });
  const client = new Client({ name: "bundle-test", version: "1.0.0" });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    const health = await client.callTool({ name: "health", arguments: {} });
    return { tools: tools.map((t) => t.name), healthOk: health.isError !== true };
  } finally {
    await client.close();
  }
}

describe("the Claude Desktop bundle", { timeout: 30_000 }, () => {
  it("maps each setting to the variable the server reads", async () => {
    const m = await bundleManifest();
    const server = m.server as { mcp_config: { env: Record<string, string> } };
    expect(server.mcp_config.env).toEqual({
      RESMON_PORT: unset("port"),
      RESMON_PORT_FILE: unset("port_file"),
      RESMON_STATE_DIR: unset("state_dir"),
      RESMON_MCP_READ_ONLY: unset("read_only"),
    });
    expect(Object.keys(m.user_config as object).sort()).toEqual([
      "port",
      "port_file",
      "read_only",
      "state_dir",
    ]);
    expect((m.tools as { name: string }[]).map((t) => t.name)).toEqual([...TOOL_NAMES]);
    const staged = JSON.parse(await readFile(join(stage, "manifest.json"), "utf8")) as unknown;
    expect(staged).toEqual(m);
  });

  it("lists a tool by its description's first sentence", () => {
    expect(firstSentence("Lists runs. Each has an id.")).toBe("Lists runs.");
    expect(firstSentence("No stop")).toBe("No stop");
    expect(firstSentence("Version 1.0 is read. Then more.")).toBe("Version 1.0 is read.");
  });

  it("the read-only checkbox ('true') makes a read-only session; an unset field's placeholder is dropped", async () => {
    const r = await listWith({
      RESMON_PORT: unset("port"),
      RESMON_PORT_FILE: kit.portFile ?? "",
      RESMON_STATE_DIR: kit.stateDir,
      RESMON_MCP_READ_ONLY: "true",
    });
    expect(r.tools.sort()).toEqual([...READ_TOOLS].sort());
    expect(r.healthOk).toBe(true);
  });

  it("an unticked read-only ('false') and empty fields leave the full surface", async () => {
    const r = await listWith({
      RESMON_PORT: String(kit.port),
      RESMON_PORT_FILE: "",
      RESMON_STATE_DIR: kit.stateDir,
      RESMON_MCP_READ_ONLY: "false",
    });
    expect(r.tools).toHaveLength(TOOL_NAMES.length);
    expect(r.healthOk).toBe(true);
  });
});
