/**
 * The cross-platform CI (issue 45): the workflow's matrix read as GitHub reads it (YAML parsed), the
 * Windows forms of starting npm's shims (injected platform), and `pnpm platform:check` run here.
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import yaml from "js-yaml";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, SERVER_DIR } from "../src/pack-snippets.js";
import { cmdLine, cmdWord, harnessLaunch, invocation } from "../src/platform-check/commands.js";
import { harnessLaunches } from "../src/platform-check.js";

const execFileP = promisify(execFile);

interface Step {
  name?: string;
  run?: string;
  uses?: string;
  if?: string;
  shell?: string;
  "working-directory"?: string;
}
interface Job {
  "runs-on": string;
  strategy?: { matrix?: { os?: string[]; node?: number[]; include?: Record<string, unknown>[] } };
  steps: Step[];
  defaults?: { run?: { shell?: string } };
}
const workflow = yaml.load(readFileSync(join(REPO_ROOT, ".github/workflows/ci.yml"), "utf8")) as {
  jobs: Record<string, Job>;
};
const OSES = ["ubuntu-latest", "macos-latest", "windows-latest"];

describe("ci.yml: the tarball and unit jobs on the three desktops, Node 20 and 24", () => {
  for (const name of ["tarball", "unit"]) {
    it(`${name}: the matrix has Linux, macOS and Windows, each on Node 20 and 24`, () => {
      const job = workflow.jobs[name];
      expect(job).toBeDefined();
      // GitHub's expression syntax, not a template literal.
      expect(job?.["runs-on"]).toBe(["$", "{{ matrix.os }}"].join(""));
      expect(job?.strategy?.matrix?.os).toEqual(OSES);
      expect(job?.strategy?.matrix?.node).toEqual(expect.arrayContaining([20, 24]));
    });

    it(`${name}: no step forces bash, and every step that runs on Windows uses the runner's own shell`, () => {
      const job = workflow.jobs[name] as Job;
      expect(job.defaults?.run?.shell).toBeUndefined();
      for (const step of job.steps) {
        if (step.run === undefined) continue;
        const linuxOnly = step.if?.includes("runner.os == 'Linux'") === true;
        if (linuxOnly) continue;
        // PowerShell on Windows, bash elsewhere: the step must mean the same in both.
        expect(step.shell, step.name).toBeUndefined();
        expect(step.run, step.name).not.toMatch(/[|&;$`\\]|\bexport\b|\bmkdir -p\b|\brm -rf\b|\n./);
      }
    });
  }

  it("tarball: the platform check runs everywhere; the Linux-only tools (pack:check, its cache) say so", () => {
    const steps = workflow.jobs.tarball?.steps ?? [];
    const check = steps.find((s) => s.run === "pnpm platform:check");
    expect(check?.if).toBeUndefined();
    for (const s of steps.filter((x) => x.run?.includes("pack:check") || x.uses?.startsWith("actions/cache")))
      expect(s.if).toBe("runner.os == 'Linux'");
  });

  it("unit: runs the suites of contract, api-client and scan", () => {
    const run = workflow.jobs.unit?.steps.find((s) => s.run?.includes("turbo run test"))?.run ?? "";
    for (const pkg of ["@resmon/mcp-contract", "@resmon/api-client", "@resmon/scan"])
      expect(run).toContain(`--filter=${pkg}`);
  });

  it("the repository checks out with LF line ends on every platform (.gitattributes)", () => {
    expect(readFileSync(join(REPO_ROOT, ".gitattributes"), "utf8")).toMatch(/^\* text=auto eol=lf$/m);
  });
});

describe("starting npm's shims on each platform", () => {
  it("a harness on Windows starts `cmd /c npx …`; elsewhere, and for node, the command as written", () => {
    expect(harnessLaunch("win32", "npx", ["-y", "@resmon/mcp-server@1.0.0"])).toEqual({
      command: "cmd",
      args: ["/c", "npx", "-y", "@resmon/mcp-server@1.0.0"],
    });
    expect(harnessLaunch("darwin", "npx", ["resmon-mcp"])).toEqual({ command: "npx", args: ["resmon-mcp"] });
    expect(harnessLaunch("win32", "node", ["C:\\x\\resmon-mcp.cjs"])).toEqual({
      command: "node",
      args: ["C:\\x\\resmon-mcp.cjs"],
    });
    expect(harnessLaunches("win32").map((l) => `${l.launch.command} ${l.launch.args.join(" ")}`)).toEqual([
      "cmd /c npx resmon-mcp",
      "npx resmon-mcp",
    ]);
    expect(harnessLaunches("linux").map((l) => l.launch.command)).toEqual(["npx"]);
  });

  it("a script on Windows runs npm's shims through cmd.exe, paths with spaces quoted; elsewhere directly", () => {
    expect(invocation("win32", "npm", ["install", "C:\\Users\\A B\\x.tgz"])).toEqual({
      file: "cmd.exe",
      args: ["/d", "/s", "/c", '"npm install "C:\\Users\\A B\\x.tgz""'],
      verbatim: true,
    });
    expect(invocation("linux", "npm", ["install", "/a b/x.tgz"])).toEqual({
      file: "npm",
      args: ["install", "/a b/x.tgz"],
      verbatim: false,
    });
    expect(cmdLine("pnpm", ["pack", "--pack-destination", "D:\\t"])).toBe(
      "pnpm pack --pack-destination D:\\t",
    );
    expect(cmdWord("a&b")).toBe('"a&b"');
    // No spelling passes these through cmd.exe unchanged: refused, never run altered.
    expect(() => cmdWord('say "hi"')).toThrow(/cannot pass/);
    expect(() => cmdWord("%PATH%")).toThrow(/cannot pass/);
  });
});

describe.skipIf(!existsSync(join(SERVER_DIR, "dist", "resmon-mcp.cjs")))("pnpm platform:check, here", () => {
  it("packs, installs with npm, starts with npx, answers the opening, tools/list, health and doctor", async () => {
    const tsx = resolve(REPO_ROOT, "tools", "node_modules", ".bin", "tsx");
    const { stdout } = await execFileP(tsx, ["src/platform-check.ts"], {
      cwd: resolve(REPO_ROOT, "tools"),
      timeout: 120_000,
    });
    expect(stdout).toMatch(/^PASS harness start: npx resmon-mcp/m);
    expect(stdout).toMatch(/^PASS the installed bin over a pipe, CRLF line ends; stdin closed ends it/m);
    expect(stdout).toMatch(/^PASS npx resmon-mcp doctor/m);
    expect(stdout).toMatch(/platform:check: 5 passed, 0 failed/);
  });
});

describe("build scripts take file paths as every platform spells them", () => {
  it("no build script makes a path of a file URL's pathname (/C:/… on Windows, %20 for a space)", () => {
    for (const file of ["packages/mcp-server/build.mjs"]) {
      const text = readFileSync(join(REPO_ROOT, file), "utf8");
      expect(text, file).not.toMatch(/new URL\([^)]*\)\.pathname/);
    }
  });
});
