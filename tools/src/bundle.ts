/**
 * `pnpm bundle`: the Claude Desktop bundle, `packages/mcp-server/dist/resmon-mcp-<version>.mcpb`,
 * built with the MCP Bundles CLI (`@anthropic-ai/mcpb`, pinned in npm-tools.ts). Staged in a
 * temporary directory: `bundle/manifest.json` (with the contract's tools listed), `bundle/launch.mjs`
 * and the bin the npm tarball ships (`dist/resmon-mcp.cjs`) under `server/`; then
 * `mcpb validate` and `mcpb pack`. Needs `pnpm build` first. pack-check unpacks and starts it.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TOOLS } from "@resmon/mcp-contract";
import { ensureTools, NPM_TOOLS, type Tools } from "./npm-tools.js";
import { BUNDLE_MANIFEST, withPackTimeFigures } from "./release-meta.js";
import { runIfMain } from "./run-main.js";

const SERVER_DIR = join(import.meta.dirname, "../../packages/mcp-server");
const BUNDLE_SOURCE = join(SERVER_DIR, "bundle");

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

export function runTool(cmd: string, args: string[], cwd: string, timeoutMs = 120_000): Promise<Ran> {
  return new Promise((done) => {
    execFile(cmd, args, { cwd, timeout: timeoutMs, maxBuffer: 64 << 20 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      done({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

/** A tool's description as the bundle lists it: its first sentence. */
export function firstSentence(text: string): string {
  const m = /^[\s\S]*?[.!?](?=\s|$)/.exec(text.trim());
  return (m ? m[0] : text).trim();
}

/** The manifest the bundle carries: the committed one, its surface figures filled in and the contract's tools listed. */
export async function bundleManifest(): Promise<Record<string, unknown>> {
  const manifest = JSON.parse(await readFile(BUNDLE_MANIFEST, "utf8")) as Record<string, unknown>;
  return {
    ...withPackTimeFigures(manifest),
    tools: TOOLS.map((t) => ({ name: t.name, description: firstSentence(t.description) })),
  };
}

export async function stageBundle(stage: string): Promise<void> {
  const dist = join(SERVER_DIR, "dist");
  if (!existsSync(join(dist, "resmon-mcp.cjs")))
    throw new Error("packages/mcp-server/dist is missing: run `pnpm build`");
  await mkdir(join(stage, "server"), { recursive: true });
  await writeFile(join(stage, "manifest.json"), `${JSON.stringify(await bundleManifest(), null, 2)}\n`);
  await cp(join(BUNDLE_SOURCE, "launch.mjs"), join(stage, "server", "launch.mjs"));
  await cp(join(dist, "resmon-mcp.cjs"), join(stage, "server", "resmon-mcp.cjs"));
  await cp(join(SERVER_DIR, "README.md"), join(stage, "README.md"));
}

export interface Built {
  path: string;
  validate: Ran;
  pack: Ran;
}

/** Stage, validate and pack; the .mcpb lands in packages/mcp-server/dist/. */
export async function buildBundle(tools: Tools): Promise<Built> {
  const { version } = JSON.parse(await readFile(join(SERVER_DIR, "package.json"), "utf8")) as {
    version: string;
  };
  const path = join(SERVER_DIR, "dist", `resmon-mcp-${version}.mcpb`);
  const stage = await mkdtemp(join(tmpdir(), "resmon-bundle-stage-"));
  try {
    await stageBundle(stage);
    const validate = await runTool(tools.bin("mcpb"), ["validate", join(stage, "manifest.json")], stage);
    await rm(path, { force: true });
    const pack =
      validate.code === 0
        ? await runTool(tools.bin("mcpb"), ["pack", stage, path], stage)
        : { code: 1, stdout: "", stderr: "not packed: the manifest did not validate" };
    return { path, validate, pack };
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
}

runIfMain(import.meta.url, "bundle", async () => {
  const tools = await ensureTools([NPM_TOOLS.mcpb]);
  const built = await buildBundle(tools);
  for (const step of [built.validate, built.pack]) process.stdout.write(step.stdout + step.stderr);
  if (built.validate.code !== 0 || built.pack.code !== 0 || !existsSync(built.path)) return 1;
  console.log(`bundle: ${built.path}`);
  return 0;
});
