/**
 * docs/embedded-assistant.md: the two ways resmon's assistant builds its pre-approved list give the
 * same set, that set is READ_TOOLS, and the code the guide shows is the code run here.
 */
import { execFile } from "node:child_process";
import { copyFile, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { READ_TOOLS, SERVER_NAME, WRITE_TOOLS } from "@resmon/mcp-contract";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../src/pack-snippets.js";

const run = promisify(execFile);
const DOCS = join(REPO_ROOT, "docs");
const TS_EXAMPLE = join(DOCS, "examples", "pre-approved.ts");
const PY_EXAMPLE = join(DOCS, "examples", "pre_approved.py");
const CONTRACT_JSON = join(REPO_ROOT, "contract", "contract.json");
// Run from inside tools/, so `@resmon/mcp-contract` resolves as it does for a package that depends on it.
const RUN_DIR = join(REPO_ROOT, "tools", ".docs-example-run");

const python = await run("python3", ["--version"]).then(
  () => true,
  () => false,
);

interface Lists {
  allowed: string[];
  gated: string[];
}

afterAll(async () => {
  await rm(RUN_DIR, { recursive: true, force: true });
});

const expected = READ_TOOLS.map((n) => `mcp__${SERVER_NAME}__${n}`);

describe("docs/embedded-assistant.md", { timeout: 60_000 }, () => {
  it("shows exactly the example files it names", async () => {
    const guide = await readFile(join(DOCS, "embedded-assistant.md"), "utf8");
    for (const file of [TS_EXAMPLE, PY_EXAMPLE]) {
      const code = (await readFile(file, "utf8")).trimEnd();
      expect(guide).toContain(`\n${code}\n\`\`\``);
    }
  });

  it("the TypeScript route gives READ_TOOLS, named for the harness, and gates the writes", async () => {
    await mkdir(RUN_DIR, { recursive: true });
    const copy = join(RUN_DIR, "pre-approved.ts");
    await copyFile(TS_EXAMPLE, copy);
    const tsx = join(REPO_ROOT, "tools", "node_modules", ".bin", "tsx");
    const { stdout } = await run(tsx, [copy], { cwd: RUN_DIR, timeout: 60_000 });
    const lists = JSON.parse(stdout) as Lists;
    expect(lists.allowed).toEqual(expected);
    expect(lists.allowed).toHaveLength(READ_TOOLS.length);
    expect(lists.gated).toEqual(WRITE_TOOLS.map((n) => `mcp__${SERVER_NAME}__${n}`));
  });

  it("the JSON route (contract/contract.json) gives the same set", async () => {
    const doc = JSON.parse(await readFile(CONTRACT_JSON, "utf8")) as {
      server_name: string;
      read_tools: string[];
      tools: { name: string; requires_confirmation: boolean }[];
    };
    const fromList = doc.read_tools.map((n) => `mcp__${doc.server_name}__${n}`);
    const fromFlags = doc.tools
      .filter((t) => !t.requires_confirmation)
      .map((t) => `mcp__${doc.server_name}__${t.name}`);
    expect(new Set(fromList)).toEqual(new Set(expected));
    expect(new Set(fromFlags)).toEqual(new Set(expected));
  });

  it.skipIf(!python)("the Python example gives the same set", async () => {
    const { stdout } = await run("python3", [PY_EXAMPLE, CONTRACT_JSON], { timeout: 30_000 });
    const lists = JSON.parse(stdout) as Lists;
    expect(lists.allowed).toEqual(expected);
    expect(lists.gated).toHaveLength(WRITE_TOOLS.length);
  });

  it.skipIf(!python)(
    "the Python example refuses a contract whose flags disagree with its lists",
    async () => {
      const doc = JSON.parse(await readFile(CONTRACT_JSON, "utf8")) as {
        tools: { requires_confirmation: boolean }[];
      };
      const first = doc.tools[0];
      if (first) first.requires_confirmation = true;
      await mkdir(RUN_DIR, { recursive: true });
      const bad = join(RUN_DIR, "contract.json");
      await writeFile(bad, JSON.stringify(doc));
      await expect(run("python3", [PY_EXAMPLE, bad], { timeout: 30_000 })).rejects.toThrow(
        /exactly the tools/,
      );
    },
  );
});
