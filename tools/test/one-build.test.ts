/**
 * One build per edit (issue 43): what a package's build writes is never an input of a build. Before,
 * a new stand-in route built all five packages twice: the root depended on @resmon/testkit, so turbo
 * hashed every testkit file (its route index too) into every task's hash; and the indexes the builds
 * write were also listed as the build's outputs, which put them back among its inputs despite their
 * `!` exclusions. Each index is written by a task of its own, never cached, before its build, so a
 * cache hit finds it current. Read from turbo's own dry run, so it holds whatever turbo.json says.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../src/pack-snippets.js";

interface DryRun {
  globalCacheInputs: { hashOfInternalDependencies: string; files: Record<string, string> };
  tasks: {
    taskId: string;
    package: string;
    task: string;
    directory: string;
    inputs: Record<string, string>;
    dependencies: string[];
    resolvedTaskDefinition: { cache: boolean };
  }[];
}

function dryRun(): DryRun {
  const run = spawnSync(join(REPO_ROOT, "node_modules", ".bin", "turbo"), ["run", "build", "--dry=json"], {
    cwd: REPO_ROOT,
    encoding: "utf8",
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1" },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`turbo run build --dry=json failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as DryRun;
}

/** The files a package's build script writes with the module-index generator, relative to the package. */
function writtenByBuild(dir: string): string[] {
  const { scripts } = JSON.parse(readFileSync(join(REPO_ROOT, dir, "package.json"), "utf8")) as {
    scripts?: Record<string, string>;
  };
  return [...(scripts?.build ?? "").matchAll(/gen-module-index\.mjs\s+\S+\s+(\S+)/g)].map(
    (m) => m[1] as string,
  );
}

const PACKAGES = readdirSync(join(REPO_ROOT, "packages")).map((name) => `packages/${name}`);

describe("one build per edit", () => {
  const dry = dryRun();

  it("the root depends on no workspace package, so no package's files are in every task's hash", () => {
    const root = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as Record<
      string,
      Record<string, string> | undefined
    >;
    const internal = ["dependencies", "devDependencies", "optionalDependencies"].flatMap((field) =>
      Object.entries(root[field] ?? {})
        .filter(([, spec]) => spec.startsWith("workspace:"))
        .map(([name]) => name),
    );
    expect(internal).toEqual([]);
    expect(dry.globalCacheInputs.hashOfInternalDependencies).toBe("");
  });

  it("no build has among its inputs an index that a build writes", () => {
    const written = PACKAGES.flatMap((dir) => writtenByBuild(dir).map((file) => ({ dir, file })));
    // The three indexes today (tool rows, handlers, stand-in routes): a build that writes none would
    // make this test hold nothing.
    expect(written.length).toBeGreaterThanOrEqual(3);
    for (const { dir, file } of written) {
      const task = dry.tasks.find((t) => t.directory === dir && t.task === "build");
      expect(task, `${dir}'s build task`).toBeDefined();
      expect(Object.keys(task?.inputs ?? {}), `${dir}'s build inputs`).not.toContain(file);
      // The source the index is made from is an input: an edit there does rebuild.
      expect(Object.keys(task?.inputs ?? {}).some((input) => input.startsWith("src/"))).toBe(true);
    }
  });

  it("each index is written before its build, by a task never cached: a build's cache hit finds it current", () => {
    // Without it, a hit (this worktree's cache, a copy sharing it) left a stale index in place, and
    // `pnpm check` failed on it (issue 43's walk-through, once the indexes left the outputs).
    for (const dir of PACKAGES.filter((d) => writtenByBuild(d).length > 0)) {
      const build = dry.tasks.find((t) => t.directory === dir && t.task === "build");
      const index = dry.tasks.find((t) => t.directory === dir && t.task === "index");
      expect(index, `${dir}'s index task`).toBeDefined();
      expect(index?.resolvedTaskDefinition.cache, `${dir}#index cached`).toBe(false);
      expect(build?.dependencies).toContain(index?.taskId);
      // What it writes is not its input either: its hash is part of the build's.
      for (const file of writtenByBuild(dir)) expect(Object.keys(index?.inputs ?? {})).not.toContain(file);
    }
  });

  it("the server's opening answers are written from the built contract before the server's build, and are not its input", () => {
    // `pnpm generate` wrote opening.ts after the build that needed it: the server built twice per
    // table edit. turbo hashes every input before it runs anything, so a file written during the run
    // must stay out of the inputs; the contract's build and the generator, which decide it, are in.
    const build = dry.tasks.find((t) => t.taskId === "@resmon/mcp-server#build");
    const opening = dry.tasks.find((t) => t.taskId === "@resmon/dev-scripts#opening");
    expect(opening?.resolvedTaskDefinition.cache).toBe(false);
    expect(opening?.dependencies).toContain("@resmon/mcp-contract#build");
    expect(build?.dependencies).toContain("@resmon/dev-scripts#opening");
    expect(Object.keys(build?.inputs ?? {})).not.toContain("src/generated/opening.ts");
    expect(Object.keys(opening?.inputs ?? {})).toContain("src/gen-opening.ts");
  });
});
