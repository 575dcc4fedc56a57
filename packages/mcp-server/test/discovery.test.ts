import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
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

describe("backend_unavailable, worded for what was found", () => {
  it("a named port whose token file is missing names that instance and does not say 'not running'", async () => {
    const dir = stateDir();
    const kit = await startTestkit({ stateDir: dir, seed: "small", writeTokenFile: false });
    try {
      const error = await firstError({ RESMON_PORT: String(kit.port), RESMON_STATE_DIR: dir });
      // Nothing is requested without a token, so no URL was tried; the port and token path name it.
      expect(error).toMatchObject({ error: "backend_unavailable", tried: [], no_port_named: false });
      expect(error.detail).toMatchObject({ reason: "no_token_file", port: kit.port });
      expect(error.message).toContain(String(kit.port));
      expect(error.message).not.toMatch(/not running/);
      expect(kit.requests).toHaveLength(0);
    } finally {
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
