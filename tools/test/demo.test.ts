/**
 * `pnpm demo` (the README's main command): the stand-in starts, the built server runs the tour over
 * stdio and the demo ends on its own with exit 0; every section prints, in words a person reads
 * (no raw null, no microsecond timestamps) except the one raw answer, and the token never appears.
 * With --serve it keeps serving until Ctrl-C, which exits 0, also under pnpm in a terminal.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { TOOLS } from "@resmon/mcp-contract";
import { describe, expect, it } from "vitest";
import { SERVER_DIR } from "../src/pack-snippets.js";

const TOOLS_DIR = join(SERVER_DIR, "..", "..", "tools");
const ROOT = join(TOOLS_DIR, "..");
// As `pnpm demo` runs it (tools/package.json): one process, tsx as a loader. Through the tsx CLI a
// SIGINT first reaches tsx's own parent process, which gives the demo 30 ms to say it heard it and
// otherwise kills it and exits 130: on a loaded machine that was a lost race, not the demo's answer.
const DEMO = ["--import", "tsx", "src/demo/main.ts"];
const READS = TOOLS.filter((t) => !t.requiresConfirmation).length;
const BUILT = existsSync(join(SERVER_DIR, "dist", "resmon-mcp.cjs"));
const RAW_HEADING = "── What the model receives";
// The stand-in's token is exactly 43 URL-safe base64 characters: no such run may appear anywhere.
const TOKEN_SHAPED = /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/;

/** Util-linux `script` runs a command under a pseudo-terminal, as a person's shell would. */
const HAVE_SCRIPT = spawnSync("script", ["--version"], { encoding: "utf8" }).stdout?.includes("util-linux");

function section(stdout: string, heading: string): string {
  const start = stdout.indexOf(heading);
  const end = stdout.indexOf("\n── ", start + heading.length);
  return start < 0 ? "" : stdout.slice(start, end < 0 ? undefined : end);
}

/** Runs until `ready` is printed, then `interrupt`s; resolves with everything printed and how it ended. */
function interruptWhenReady(
  child: ChildProcess,
  ready: string,
  interrupt: () => void,
): Promise<{ output: string; code: number | null; signal: string | null }> {
  return new Promise((resolve) => {
    let output = "";
    let sent = false;
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (!sent && output.includes(ready)) {
        sent = true;
        setTimeout(interrupt, 300);
      }
    };
    child.stdout?.on("data", read);
    child.stderr?.on("data", read);
    child.on("exit", (code, signal) => resolve({ output, code, signal }));
  });
}

describe.skipIf(!BUILT)("pnpm demo", () => {
  it("tours reads, a scan, a confirm-gated write, a read-only refusal, doctor and a raw answer, then exits 0", () => {
    const run = spawnSync(process.execPath, DEMO, { cwd: TOOLS_DIR, encoding: "utf8", timeout: 90_000 });
    expect(run.status, run.stderr).toBe(0);
    const stdout = run.stdout;
    for (const heading of [
      "── The MCP server",
      "── health",
      "(keyword)",
      "(semantic)",
      "── get_routine",
      "── list_executions",
      "search record",
      "── A literature scan",
      "── create_routine",
      "── The same write in a read-only session",
      "── resmon-mcp doctor",
      RAW_HEADING,
    ]) {
      expect(stdout).toContain(heading);
    }
    expect(stdout).toContain("Tour done.");
    expect(`${stdout}\n${run.stderr}`).not.toMatch(TOKEN_SHAPED);

    // The package's version and the app's are told apart.
    expect(section(stdout, "── The MCP server")).toMatch(
      /@resmon\/mcp-server \d+\.\d+\.\d+ \(the npm package/,
    );
    expect(section(stdout, "── The MCP server")).toContain(
      `${TOOLS.length} tools: ${READS} reads, ${TOOLS.length - READS} writes`,
    );
    expect(section(stdout, "── health")).toMatch(/resmon \d+\.\d+\.\d+ \(the desktop app's own version\)/);

    // Semantic distances differ from hit to hit.
    const distances = [...section(stdout, "(semantic)").matchAll(/distance (\d\.\d{3})/g)].map((m) => m[1]);
    expect(distances).toHaveLength(5);
    expect(new Set(distances).size).toBeGreaterThan(1);

    // The scan: its row's example call, each envelope followed to complete, the top verified.
    const scanned = section(stdout, "── A literature scan");
    expect(scanned).toMatch(/scan_start \(the plan[^)]*\) → \w+ → (await_retrieval|screen_candidates)/);
    expect(scanned).toContain("→ rank → rank_shortlist: page 1 of");
    expect(scanned).toContain("scan_verify (scan_id) → complete → complete");
    expect(scanned).toMatch(/ {4}1\. .+ \(verified\)/);
    expect(scanned).toContain("evidence written: evidence.json, evidence.md, evidence.bib");

    // The write asks first and lands inactive; the read-only session refuses it; doctor says OK.
    expect(section(stdout, "── create_routine")).toContain("requires_confirmation: true");
    expect(section(stdout, "── create_routine")).toMatch(/routine #\d+ "Demo: .*", inactive/);
    expect(section(stdout, "── The same write")).toContain(`offers ${READS} tools`);
    expect(section(stdout, "── The same write")).toContain("invalid_argument: create_routine changes resmon");
    expect(section(stdout, "── The same write")).toContain(
      '{"read_only":true,"sent":false,"outcome":"not_sent"}',
    );
    expect(section(stdout, "── resmon-mcp doctor")).toContain("exit code 0:\n  OK: a resmon answered.");

    // Everything but the raw answer is written for a person: no null, no ISO instants.
    const forPeople = stdout.slice(0, stdout.indexOf(RAW_HEADING));
    expect(forPeople).not.toMatch(/\bnull\b|\bundefined\b|NaN/);
    expect(forPeople).not.toMatch(/\d{2}:\d{2}:\d{2}|\d{4}-\d{2}-\d{2}T/);
    // The raw answer is one JSON text, as the model receives it.
    const raw = section(stdout, RAW_HEADING)
      .split("\n")
      .filter((l) => l.startsWith("{"));
    expect(raw).toHaveLength(1);
    expect(JSON.parse(raw[0] ?? "")).toMatchObject({ id: 1, display_name: "Ada Lovelace" });
  }, 120_000);

  it("--serve keeps serving; SIGINT to the demo ends it with exit 0 and cleans up", async () => {
    const child = spawn(process.execPath, [...DEMO, "--serve"], {
      cwd: TOOLS_DIR,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const run = await interruptWhenReady(child, "Serving until Ctrl-C.", () => child.kill("SIGINT"));
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain("Stopped: the stand-in is down");
    const stateDir = /state dir (\S+)/.exec(run.output)?.[1] ?? "";
    expect(stateDir).not.toBe("");
    expect(existsSync(stateDir)).toBe(false);
  }, 120_000);

  it.skipIf(!HAVE_SCRIPT)(
    "Ctrl-C in a terminal, under pnpm, exits 0 without pnpm's ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL",
    async () => {
      const child = spawn(
        "script",
        ["-qefc", "pnpm --filter @resmon/dev-scripts run demo --serve", "/dev/null"],
        {
          cwd: ROOT,
          stdio: ["pipe", "pipe", "pipe"],
        },
      );
      // The byte a terminal sends for Ctrl-C, typed into the pseudo-terminal.
      const run = await interruptWhenReady(child, "Serving until Ctrl-C.", () => child.stdin?.write("\x03"));
      expect(run.output).toContain("Stopped: the stand-in is down");
      expect(run.output).not.toMatch(/ERR_PNPM|ELIFECYCLE|Command failed/);
      expect(run.code, run.output).toBe(0);
    },
    120_000,
  );
});
