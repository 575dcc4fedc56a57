/**
 * What the server's README tells a newcomer to run does what its text says: the live test command
 * runs the live test alone, and every harness's setup says where the real check is (a harness's
 * "connected" proves only that the server started).
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, SERVER_DIR } from "../src/pack-snippets.js";

const README = readFileSync(join(SERVER_DIR, "README.md"), "utf8");

/** The documented live command, from `pnpm` on (its variables name a real resmon, left off here). */
function liveCommand(): string[] {
  const line = README.split("\n").find((l) => l.startsWith("RESMON_LIVE=1 "));
  expect(line, "the README's live test command").toBeDefined();
  const words = (line as string).split(/\s+/);
  return words.slice(words.indexOf("pnpm"));
}

describe("the server README's commands", () => {
  it("the live test command runs test/live.test.ts and nothing else", { timeout: 120_000 }, () => {
    const [command, ...args] = liveCommand();
    expect(command).toBe("pnpm");
    const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" };
    delete env.RESMON_LIVE; // the live test then skips itself: nothing is sent anywhere
    const run = spawnSync(command as string, args, {
      cwd: REPO_ROOT,
      env,
      encoding: "utf8",
      timeout: 110_000,
    });
    const out = `${run.stdout}\n${run.stderr}`;
    expect(run.status, out).toBe(0);
    expect(out).toContain("test/live.test.ts");
    expect(out).toMatch(/Test Files\s+1 skipped \(1\)/);
    expect(out).toMatch(/Tests\s+1 skipped \(1\)/);
  });

  it("no root script that runs turbo prints its first-run telemetry notice, on any platform", () => {
    const scripts = (
      JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as {
        scripts: Record<string, string>;
      }
    ).scripts;
    const withTurbo = Object.entries(scripts).filter(([, line]) => /\bturbo run\b/.test(line));
    expect(withTurbo.length).toBeGreaterThan(5);
    for (const [name, line] of withTurbo) expect(line, name).toMatch(/^TURBO_TELEMETRY_DISABLED=1 /);
    // `VAR=value command` in a script needs a shell that reads it: pnpm's emulator, on Windows too.
    expect(readFileSync(join(REPO_ROOT, "pnpm-workspace.yaml"), "utf8")).toMatch(/^shellEmulator: true$/m);
  });

  it("every harness's setup says `resmon-mcp doctor` is the check", () => {
    const section = README.slice(
      README.indexOf("## Setting it up in a harness"),
      README.indexOf("### Tried as a new user would"),
    );
    const harnesses = section.split("\n### ").slice(1);
    expect(harnesses.length).toBeGreaterThan(5);
    for (const part of harnesses) {
      const name = part.split("\n")[0];
      if (!part.includes("<!-- snippet:")) continue;
      expect(part, name).toContain("**`resmon-mcp doctor` is the check**");
    }
  });
});
