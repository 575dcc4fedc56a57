/**
 * `pnpm demo --once` (the README's main job, without the wait for Ctrl-C): the stand-in starts, the
 * built server runs the tour over stdio, every section prints, the token never does, and it exits 0.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { TOOLS } from "@resmon/mcp-contract";
import { describe, expect, it } from "vitest";
import { SERVER_DIR } from "../src/pack-snippets.js";

const TOOLS_DIR = join(SERVER_DIR, "..", "..", "tools");
const TSX = join(TOOLS_DIR, "node_modules", ".bin", "tsx");

describe.skipIf(!existsSync(join(SERVER_DIR, "dist", "resmon-mcp.js")))("pnpm demo --once", () => {
  it("tours health, both search modes, a routine, an execution and its search record, then exits", () => {
    const run = spawnSync(TSX, ["src/demo.ts", "--once"], {
      cwd: TOOLS_DIR,
      encoding: "utf8",
      timeout: 90_000,
    });
    expect(run.status, run.stderr).toBe(0);
    for (const section of [
      "── health",
      "(keyword)",
      "(semantic)",
      "── get_routine",
      "── list_executions",
      "search record",
    ]) {
      expect(run.stdout).toContain(section);
    }
    expect(run.stdout).toContain(`${TOOLS.length} tools`);
    // The stand-in's token is exactly 43 URL-safe base64 characters: no such run may appear anywhere.
    expect(`${run.stdout}\n${run.stderr}`).not.toMatch(
      /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/,
    );
  }, 120_000);
});
