/**
 * `resmon-mcp doctor --tools` against the stand-in as resmon 1.7 (issue 21's "done when"): exit 0
 * with every difference a version gap, list_routines and get_routine answered (missed fires named
 * not reported, contract 1.3), and the summary's counts the contract's own toolNeeds gives for 1.7.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compareVersions, TOOLS, toolNeeds } from "@resmon/mcp-contract";
import { startTestkit, type Testkit } from "@resmon/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runDoctor } from "../src/bin/doctor.js";
import { CLI, cleanEnv, HAVE_CLI } from "./helpers/spawn.js";

describe.skipIf(!HAVE_CLI)("doctor --tools against the stand-in as resmon 1.7", { timeout: 120_000 }, () => {
  let dir = "";
  let kit: Testkit;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "resmon-doctor-17-"));
    kit = await startTestkit({ stateDir: join(dir, "state"), seed: "demo", as: "1.7" });
  });
  afterAll(async () => {
    await kit?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it("exits 0, answers the routines, and counts what 1.7 lacks as the contract's table says", async () => {
    const lines: string[] = [];
    const code = await runDoctor({
      env: cleanEnv({ RESMON_PORT_FILE: kit.portFile ?? "", RESMON_STATE_DIR: kit.stateDir }),
      platform: "linux",
      homedir: join(dir, "home"),
      tools: true,
      server: { command: process.execPath, args: [CLI] },
      write: (l) => lines.push(l),
    });
    const text = lines.join("\n");
    expect(code, text).toBe(0);
    expect(text).not.toContain(kit.token);
    for (const name of ["list_routines", "get_routine"]) {
      expect(lines, name).toContainEqual(
        expect.stringMatching(new RegExp(`^  ok {4}${name} +answered; matches its output schema`)),
      );
      expect(lines, name).toContainEqual(expect.stringMatching(new RegExp(`^  ok {19}${name}$`)));
    }
    // "ok" with an argument 1.7 lacks says so on its line (the contract's ARGUMENT_NEEDS).
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^ {2}ok +scan_start.*\(but: retrieval sweep\|both \(the default\) needs resmon ≥ 2\.3\)$/,
      ),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/^ {2}ok +export_references.*\(but: format json needs resmon ≥ 2\.3\)$/),
    );
    const available = TOOLS.filter((t) => compareVersions(toolNeeds(t), "1.7") <= 0).length;
    const gaps = TOOLS.length - available;
    expect(lines).toContain(
      `resmon ${kit.release.version}: ${available} of ${TOOLS.length} tools available; ${gaps} need a newer resmon`,
    );
    expect(text).not.toMatch(/mismatch/);
  });
});
