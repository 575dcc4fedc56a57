/**
 * The file the tarball ships (packages/mcp-server/dist/resmon-mcp.cjs, built by build.mjs) is
 * self-contained and starts. The slow proof (pack, npm install, npx, MCP Inspector) is
 * `pnpm pack:check`; this catches a broken bundle inside `pnpm test` in about a second.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { TOOL_NAMES } from "@resmon/mcp-contract";
import { startTestkit, type Testkit } from "@resmon/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SERVER_DIR } from "../src/pack-snippets.js";

const BUNDLE = join(SERVER_DIR, "dist", "resmon-mcp.cjs");
const manifest = JSON.parse(await readFile(join(SERVER_DIR, "package.json"), "utf8")) as Record<
  string,
  unknown
>;

let dir = "";
let kit: Testkit;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "resmon-bundle-"));
  kit = await startTestkit({ stateDir: dir, seed: "small" });
});
afterAll(async () => {
  await kit.stop();
  await rm(dir, { recursive: true, force: true });
});

/**
 * Every module specifier the bundle still loads at run time, in the forms esbuild emits: a
 * top-level `import ... from "x"`, `import("x")`, `__require("x")` for CommonJS code inside an
 * ES module, and a top-level `var x = require("x")` in the CommonJS bin. (Plain
 * `require("...")` text also appears inside ajv's code-generation strings, which are never run.)
 */
function importedSpecifiers(code: string): string[] {
  const found = new Set<string>();
  const patterns = [
    /^import\s+(?:[^"]*?\s+from\s+)?"([^"]+)";/gm,
    /\bimport\("([^"]+)"\)/g,
    /\b__require\("([^"]+)"\)/g,
    /^(?:const|let|var) \w+ = require\("([^"]+)"\)/gm,
  ];
  for (const re of patterns) for (const m of code.matchAll(re)) found.add(m[1] ?? "");
  return [...found].sort();
}

describe("the shipped bin", { timeout: 30_000 }, () => {
  it("declares no dependencies: what it needs is inside the one bin file", () => {
    expect(manifest.dependencies).toBeUndefined();
    expect(manifest.bin).toEqual({ "resmon-mcp": "./dist/resmon-mcp.cjs" });
    expect(manifest.files).toContain("dist/resmon-mcp.cjs");
  });

  it("is CommonJS (an ES module entry starts ~7 ms later on Node 20) and imports only Node's built-ins", async () => {
    const code = await readFile(BUNDLE, "utf8");
    expect(code.startsWith("#!/usr/bin/env node\n")).toBe(true);
    expect(code).not.toMatch(/^(import|export)\s/m);
    const builtin = (s: string) => s.startsWith("node:") || builtinModules.includes(s);
    const specifiers = importedSpecifiers(code);
    expect(specifiers).toContain("node:url");
    expect(specifiers.filter((s) => !builtin(s))).toEqual([]);
  });

  it("carries the v2 server SDK, and nothing of the old @modelcontextprotocol/sdk", async () => {
    // esbuild marks each bundled module with its path: the packages inside are named there.
    const text = await readFile(BUNDLE, "utf8");
    const packages = new Set(
      [...text.matchAll(/node_modules\/\.pnpm\/(@modelcontextprotocol\+[a-z-]+)@(\d+)/g)].map(
        (m) => `${m[1]}@${m[2]}`,
      ),
    );
    expect([...packages].sort()).toEqual(["@modelcontextprotocol+core@2", "@modelcontextprotocol+server@2"]);
  });

  it("turns on no promise hooks: on Node 20 they tax every promise of every call", async () => {
    // AsyncLocalStorage (and async_hooks.createHook) install V8 promise hooks for the whole process;
    // a call's deadline is passed down explicitly instead (Backend.forCall). Comments aside.
    const code = (await readFile(BUNDLE, "utf8")).replace(/^\s*(\/\/|\*).*$/gm, "");
    expect(code).not.toMatch(/new AsyncLocalStorage|\bcreateHook\(/);
  });

  it("the specifier scan sees a bare import", () => {
    const code =
      'import { z } from "zod";\nconst u = __require("openapi-fetch");\nawait import("x");\nconst y = require("y")';
    expect(importedSpecifiers(code)).toEqual(["openapi-fetch", "x", "y", "zod"]);
  });

  it("starts over stdio, lists every tool and reaches resmon", async () => {
    const env = { PATH: process.env.PATH ?? "", RESMON_PORT_FILE: kit.portFile ?? "", RESMON_STATE_DIR: dir };
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BUNDLE],
      env,
      stderr: "ignore",
    });
    const client = new Client({ name: "pack-bundle-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
      const health = await client.callTool({ name: "health", arguments: {} });
      expect(health.isError).not.toBe(true);
      expect(JSON.stringify(health.structuredContent)).toContain(kit.runtimeId);
    } finally {
      await client.close();
    }
  });
});
