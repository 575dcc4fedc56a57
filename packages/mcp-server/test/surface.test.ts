import { readdirSync, readFileSync } from "node:fs";
import {
  CONTRACT_VERSION,
  READ_TOOLS,
  serverInstructions,
  TOOL_NAMES,
  TOOLS,
  toolsListEntries,
  WRITE_TOOLS,
} from "@resmon/mcp-contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INSTRUCTIONS, TOOLS_LIST } from "../src/generated/opening.js";
import { HANDLERS } from "../src/handlers/index.js";
import { instructionsText } from "../src/host-info.js";
import { PACKAGE_VERSION } from "../src/version.js";
import { fakeDiscover } from "./helpers/fake-backend.js";
import { connectInMemory, isError, parsed } from "./helpers/mcp.js";

const noBackend = () => ({ status: 500, body: { detail: "should not be asked" } });

/** Tests that call every row's example generically; a tool also needs a test of its own. */
const GENERIC = new Set(["e2e-testkit.test.ts", "live.test.ts", "surface.test.ts"]);
const TEST_DIR = new URL("./", import.meta.url);

describe("every row of the table", () => {
  const ownTests = readdirSync(TEST_DIR)
    .filter((f) => f.endsWith(".test.ts") && !GENERIC.has(f))
    .map((f) => ({ file: f, text: readFileSync(new URL(f, TEST_DIR), "utf8") }));

  it.each(TOOL_NAMES.map((n) => [n]))("%s has a handler, an example and a test that calls it", (name) => {
    expect(typeof HANDLERS[name], `handlers/${name}.ts`).toBe("function");
    expect(TOOLS.find((t) => t.name === name)?.example, `${name}'s example`).toBeDefined();
    // A call by name: ok("x", …), call("x", …), callTool({ name: "x" …}) or a ["x", …] case row.
    const calls = new RegExp(`(\\(\\s*|name:\\s*|\\[\\s*)"${name}"`);
    const callers = ownTests.filter((t) => calls.test(t.text)).map((t) => t.file);
    expect(callers, `no test but the generic ones calls ${name}`).not.toEqual([]);
  });

  it("has no handler file without a row", () => {
    expect(Object.keys(HANDLERS).sort()).toEqual([...TOOL_NAMES].sort());
  });

  it("counts the tools in the instructions from the table", () => {
    expect(instructionsText(false)).toContain(`The ${WRITE_TOOLS.length} write tools`);
    expect(instructionsText(true)).toContain(`only the ${READ_TOOLS.length} read tools`);
  });
});

describe("what a session answers before a tool has run (generated/opening.ts)", () => {
  it("is the contract's own tools/list and instructions, full and read-only", () => {
    expect(TOOLS_LIST.full).toEqual(toolsListEntries());
    expect(TOOLS_LIST.readOnly).toEqual(toolsListEntries({ readOnly: true }));
    expect(INSTRUCTIONS).toEqual({ full: serverInstructions(false), readOnly: serverInstructions(true) });
  });
});

describe("initialize and tools/list (full surface)", () => {
  const fake = fakeDiscover(noBackend);
  let session: Awaited<ReturnType<typeof connectInMemory>>;
  beforeAll(async () => {
    session = await connectInMemory({ env: {}, discoverFn: fake.discoverFn });
  });
  afterAll(async () => session.close());

  it("reports name resmon, the package version and the contract version", () => {
    const info = session.client.getServerVersion();
    expect(info?.name).toBe("resmon");
    expect(info?.version).toBe(PACKAGE_VERSION);
    expect(PACKAGE_VERSION).toMatch(/^\d+\.\d+\.\d+/);
    expect(session.client.getInstructions()).toContain(`contract ${CONTRACT_VERSION}`);
    // The contract's words, as the embedded assistant and any prompt read them.
    expect(session.client.getInstructions()).toContain(serverInstructions(false));
  });

  it("lists every tool in the contract's order with requires_confirmation in _meta", async () => {
    const { tools } = await session.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
    for (const tool of tools) {
      const isWrite = WRITE_TOOLS.includes(tool.name as never);
      expect(tool._meta?.requires_confirmation).toBe(isWrite);
      expect(tool.annotations?.readOnlyHint).toBe(!isWrite);
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema?.type).toBe("object");
    }
    expect(tools.filter((t) => t._meta?.requires_confirmation === true)).toHaveLength(WRITE_TOOLS.length);
  });

  it("answers initialize and tools/list without looking for a backend", () => {
    expect(fake.discoveries()).toBe(0);
  });

  it("answers an unknown tool in the error shape, without the SDK's own error", async () => {
    const result = await session.client.callTool({ name: "drop_database", arguments: {} });
    expect(isError(result)).toBe(true);
    expect(parsed(result)).toMatchObject({ error: "invalid_argument", detail: { tool: "drop_database" } });
    expect(fake.discoveries()).toBe(0);
  });
});

describe("read-only session (RESMON_MCP_READ_ONLY=1)", () => {
  const fake = fakeDiscover(noBackend);
  let session: Awaited<ReturnType<typeof connectInMemory>>;
  beforeAll(async () => {
    session = await connectInMemory({ env: { RESMON_MCP_READ_ONLY: "1" }, discoverFn: fake.discoverFn });
  });
  afterAll(async () => session.close());

  it("lists only the reads", async () => {
    const { tools } = await session.client.listTools();
    expect(tools.map((t) => t.name)).toEqual([...READ_TOOLS]);
    expect(tools.every((t) => t._meta?.requires_confirmation === false)).toBe(true);
  });

  it.each(WRITE_TOOLS.map((n) => [n]))(
    "refuses %s before validation and before any request",
    async (name) => {
      // Deliberately invalid arguments: the read-only refusal must come first.
      const result = await session.client.callTool({ name, arguments: { bogus: true } });
      expect(isError(result)).toBe(true);
      expect(parsed(result)).toMatchObject({ error: "invalid_argument", detail: { read_only: true } });
      expect(fake.discoveries()).toBe(0);
      expect(fake.seen).toHaveLength(0);
    },
  );
});

describe.each([["0"], ["true"], ["yes"], [""]])("RESMON_MCP_READ_ONLY=%j", (value) => {
  it("leaves the full surface", async () => {
    const fake = fakeDiscover(noBackend);
    const session = await connectInMemory({
      env: { RESMON_MCP_READ_ONLY: value },
      discoverFn: fake.discoverFn,
    });
    const { tools } = await session.client.listTools();
    expect(tools).toHaveLength(TOOLS.length);
    await session.close();
  });
});
