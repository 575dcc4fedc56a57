/**
 * The api-client's examples (docs/examples/api-*.ts, shown whole in the client's README) compile
 * and run against the stand-in backend, each as a program of its own found by discovery.
 */
import { execFile } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { serverEnv, startTestkit, type Testkit } from "@resmon/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../src/pack-snippets.js";

const run = promisify(execFile);
const EXAMPLES = join(REPO_ROOT, "docs", "examples");
const README = join(REPO_ROOT, "packages", "api-client", "README.md");
const NAMES = [
  "api-new-papers",
  "api-export-bibtex",
  "api-create-routine",
  "api-reading-queue",
  "api-follow-progress",
] as const;
// Run from inside tools/, so `@resmon/api-client` resolves as it does for an app that depends on it.
const RUN_DIR = join(REPO_ROOT, "tools", ".api-example-run");
const BIN = join(REPO_ROOT, "tools", "node_modules", ".bin");

let kit: Testkit;
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "resmon-api-examples-"));
  kit = await startTestkit({ stateDir: work });
  await mkdir(RUN_DIR, { recursive: true });
  await writeFile(join(RUN_DIR, "package.json"), '{ "type": "module" }\n');
  for (const name of NAMES) await copyFile(join(EXAMPLES, `${name}.ts`), join(RUN_DIR, `${name}.ts`));
});

afterAll(async () => {
  await kit?.stop();
  await rm(RUN_DIR, { recursive: true, force: true });
  await rm(work, { recursive: true, force: true });
});

async function example(name: (typeof NAMES)[number], ...args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await run(join(BIN, "tsx"), [join(RUN_DIR, `${name}.ts`), ...args], {
    cwd: RUN_DIR,
    env: serverEnv(kit),
    timeout: 90_000,
  });
  return JSON.parse(stdout) as Record<string, unknown>;
}

describe("the api-client's examples", { timeout: 120_000 }, () => {
  it("are shown whole in the client's README", async () => {
    const readme = await readFile(README, "utf8");
    for (const name of NAMES) {
      const code = (await readFile(join(EXAMPLES, `${name}.ts`), "utf8")).trimEnd();
      expect(readme, name).toContain(`\`\`\`ts\n${code}\n\`\`\``);
    }
  });

  it("compile against the client's types", async () => {
    const files = NAMES.map((name) => join(RUN_DIR, `${name}.ts`));
    const flags = ["--noEmit", "--strict", "--skipLibCheck", "--target", "es2022"];
    await run(
      join(REPO_ROOT, "node_modules", ".bin", "tsc"),
      [...flags, "--module", "nodenext", "--moduleResolution", "nodenext", ...files],
      {
        cwd: RUN_DIR,
        timeout: 90_000,
      },
    );
  });

  it("list a routine's new papers since a date", async () => {
    const all = await example("api-new-papers", "2", "1970-01-01");
    const later = await example("api-new-papers", "2", "2026-02-11");
    expect(all.routine_id).toBe(2);
    expect(all.runs).toBeGreaterThan(later.runs as number);
    expect((all.papers as unknown[]).length).toBeGreaterThan(0);
    for (const paper of all.papers as Array<{ title: unknown }>) expect(typeof paper.title).toBe("string");
  });

  it("export an execution's BibTeX to a file, streamed", async () => {
    const file = join(work, "refs.bib");
    const out = await example("api-export-bibtex", "1", file);
    const text = await readFile(file, "utf8");
    expect(out.bytes).toBe(Buffer.byteLength(text));
    expect(text).toMatch(/^@\w+\{/);
    expect(String(out.type)).toContain("bibtex");
  });

  it("create and activate a routine", async () => {
    const out = await example("api-create-routine");
    expect(out).toMatchObject({ active: true, name: "CRISPR base editing, weekly" });
    const created = kit.requests.find((r) => r.method === "POST" && r.path === "/api/routines");
    expect(created?.body).toMatchObject({ is_active: false });
  });

  it("read the reading queue", async () => {
    const out = await example("api-reading-queue");
    expect(out.counts).toEqual({ to_read: 2, read: 1, all: 3 });
    expect((out.toRead as unknown[]).length).toBe(2);
  });

  it("follow a running execution's progress until it ends", async () => {
    const out = await example("api-follow-progress", "protein folding", "arxiv");
    const events = out.events as string[];
    expect(events[0]).toBe("execution_start");
    expect(events.at(-1)).toBe("complete");
    expect(out.status).toBe("completed");
    // It saw the run while it was still running, not only after.
    const polls = kit.requests.filter((r) => r.route === "/api/executions/{exec_id}/progress/events");
    expect(polls.length).toBeGreaterThan(1);
  });
});
