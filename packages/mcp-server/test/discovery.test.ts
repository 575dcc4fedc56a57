import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TOOLS } from "@resmon/mcp-contract";
import { startTestkit } from "@resmon/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { createResmonTools } from "../src/server.js";

/** The server's own discovery (the API client's), end to end in-process: each refusal says what it found. */
const dirs: string[] = [];
function stateDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "resmon-mcp-disc-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function firstError(env: Record<string, string>) {
  const tools = createResmonTools({ env });
  try {
    const outcome = await tools.call("list_routines", {});
    if (outcome.ok) throw new Error("expected a refusal");
    return outcome.error;
  } finally {
    await tools.close();
  }
}

/** The refusal when RESMON_PORT names the kit's port: backend_unavailable, having tried that URL only. */
async function refusedAtNamedPort(kit: { port: number; baseUrl: string }, dir: string) {
  const error = await firstError({ RESMON_PORT: String(kit.port), RESMON_STATE_DIR: dir });
  expect(error).toMatchObject({ error: "backend_unavailable", tried: [kit.baseUrl], no_port_named: false });
  return error;
}

describe("backend_unavailable, worded for what was found", () => {
  it("a named port whose token file is missing names that instance and does not say 'not running'", async () => {
    const dir = stateDir();
    const kit = await startTestkit({ stateDir: dir, seed: "small", writeTokenFile: false });
    try {
      // One token-less health goes out (the guard answers it 401 token_missing): a guarded resmon whose
      // token file is elsewhere, so the state directory is what to check.
      const error = await refusedAtNamedPort(kit, dir);
      expect(error.detail).toMatchObject({ reason: "no_token_file", port: kit.port });
      expect(error.message).toContain(String(kit.port));
      expect(error.message).toContain("set RESMON_STATE_DIR");
      expect(error.message).not.toMatch(/not running/);
      expect(kit.requests.map((r) => [r.path, r.status, r.headers.authorization])).toEqual([
        ["/api/health", 401, undefined],
      ]);
    } finally {
      await kit.stop();
    }
  });

  it.each(["1.6", "1.7"])(
    "resmon %s's public build (no guard, no token file, no port file) is refused as unguarded, with what to do",
    async (line) => {
      const dir = stateDir();
      const kit = await startTestkit({ stateDir: dir, seed: "small", as: line, unguarded: true });
      try {
        const error = await refusedAtNamedPort(kit, dir);
        expect(error.detail).toMatchObject({ reason: "unguarded_resmon", port: kit.port });
        expect(error.message).toContain(`resmon ${kit.release.version} answers at ${kit.baseUrl}`);
        expect(error.message).toContain("no local API guard");
        expect(error.message).toContain("attaches only to a resmon that publishes a token");
        expect(error.message).toContain("update the resmon app");
        expect(error.message).not.toMatch(/set RESMON_STATE_DIR|not running/);
        // Only its health was asked, with nothing secret on it; no tool's route was reached.
        expect(kit.requests.map((r) => [r.method, r.path, r.headers.authorization])).toEqual([
          ["GET", "/api/health", undefined],
        ]);
      } finally {
        await kit.stop();
      }
    },
  );

  it("every tool against the public 1.6 build answers that refusal, and only token-less health reaches it", async () => {
    const dir = stateDir();
    const kit = await startTestkit({ stateDir: dir, seed: "small", as: "1.6", unguarded: true });
    const tools = createResmonTools({
      env: { RESMON_PORT: String(kit.port), RESMON_STATE_DIR: dir, RESMON_MCP_SCAN_DATA: join(dir, "scans") },
    });
    try {
      for (const tool of TOOLS.filter((t) => !t.exampleNeeds)) {
        const outcome = await tools.call(tool.name, tool.example);
        expect(outcome.ok, tool.name).toBe(false);
        if (outcome.ok) continue;
        expect(outcome.error, tool.name).toMatchObject({
          error: "backend_unavailable",
          detail: { reason: "unguarded_resmon" },
        });
      }
      const asked = new Set(kit.requests.map((r) => `${r.method} ${r.path} ${r.headers.authorization}`));
      expect([...asked]).toEqual(["GET /api/health undefined"]);
    } finally {
      await tools.close();
      await kit.stop();
    }
  });

  it("something answering that is not resmon is refused as such", async () => {
    const dir = stateDir();
    const other: Server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ hello: "world" }));
    });
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    const address = other.address();
    const port = typeof address === "object" && address ? address.port : 0;
    writeFileSync(join(dir, `api-token-${port}`), "B".repeat(43), { mode: 0o600 });
    try {
      const error = await firstError({ RESMON_PORT: String(port), RESMON_STATE_DIR: dir });
      expect(error).toMatchObject({ error: "backend_unavailable", tried: [`http://127.0.0.1:${port}`] });
      expect(error.detail).toMatchObject({ reason: "not_resmon" });
      expect(error.message).not.toMatch(/not running/);
      expect(JSON.stringify(error)).not.toContain("B".repeat(43));
    } finally {
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });

  it("a port file that names the testkit is followed, and RESMON_STATE_DIR alone names nothing", async () => {
    const dir = stateDir();
    const kit = await startTestkit({ stateDir: dir, seed: "small" });
    try {
      const alone = await firstError({
        RESMON_STATE_DIR: dir,
        RESMON_PORT_FILE: join(dir, "elsewhere.port"),
      });
      expect(alone).toMatchObject({ error: "backend_unavailable", tried: [], no_port_named: true });
      const tools = createResmonTools({
        env: { RESMON_PORT_FILE: kit.portFile ?? "", RESMON_STATE_DIR: dir },
      });
      const outcome = await tools.call("health", {});
      await tools.close();
      expect(outcome.ok).toBe(true);
    } finally {
      await kit.stop();
    }
  });
});
