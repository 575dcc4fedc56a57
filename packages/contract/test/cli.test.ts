import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { CONTRACT_VERSION, contractDocument, TOOLS } from "../src/index.js";

// The built bin, as a user runs it (turbo builds the package before its tests).
const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const run = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8" });

describe.skipIf(!existsSync(CLI))("resmon-contract", () => {
  it("lists every tool with class, confirmation and routes", () => {
    const { status, stdout, stderr } = run();
    expect(status).toBe(0);
    expect(stderr).toBe("");
    const lines = stdout.trim().split("\n");
    expect(lines[0]).toContain(`contract ${CONTRACT_VERSION}`);
    const rows = lines.slice(2);
    expect(rows).toHaveLength(TOOLS.length);
    for (const [i, t] of TOOLS.entries()) {
      expect(rows[i]?.split(/\s{2,}/).slice(0, 3), t.name).toEqual([
        t.name,
        t.kind,
        String(t.requiresConfirmation),
      ]);
      expect(rows[i]).toContain(`${t.routes[0]?.method} ${t.routes[0]?.path}`);
    }
  });

  it("prints the whole contract with --json", () => {
    const { status, stdout } = run("--json");
    expect(status).toBe(0);
    expect(JSON.parse(stdout)).toEqual(JSON.parse(JSON.stringify(contractDocument())));
  });

  it("refuses an unknown argument with a usage line and no stack trace", () => {
    const { status, stderr } = run("--nope");
    expect(status).toBe(2);
    expect(stderr).toMatch(/usage: resmon-contract/);
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});
