/**
 * The npm CLIs that `pnpm pack:check` and `pnpm bundle` run, at pinned versions, installed once into
 * a cache directory (not the workspace: the harness CLIs alone are ~800 MB) and reused while the
 * pins are unchanged. The directory's name carries a hash of the pins, so a changed pin installs
 * afresh. `RESMON_TOOLS_CACHE` overrides where (CI caches `~/.cache/resmon-mcp`).
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";

export const NPM_TOOLS = {
  publint: "publint@0.3.25",
  attw: "@arethetypeswrong/cli@0.18.5",
  inspector: "@modelcontextprotocol/inspector@2.12.0",
  mcpb: "@anthropic-ai/mcpb@2.1.2",
  claude: "@anthropic-ai/claude-code@2.1.332",
  codex: "@openai/codex@0.171.0",
} as const;

export type NpmTool = keyof typeof NPM_TOOLS;

/** The bin each tool is run by. */
export const TOOL_BINS: Record<NpmTool, string> = {
  publint: "publint",
  attw: "attw",
  inspector: "mcp-inspector",
  mcpb: "mcpb",
  claude: "claude",
  codex: "codex",
};

export function toolsCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env.RESMON_TOOLS_CACHE) return env.RESMON_TOOLS_CACHE;
  const base = env.XDG_CACHE_HOME?.startsWith("/") ? env.XDG_CACHE_HOME : join(homedir(), ".cache");
  return join(base, "resmon-mcp");
}

export function toolsDirFor(specs: readonly string[], root = toolsCacheRoot()): string {
  const hash = createHash("sha256")
    .update([...specs].sort().join("\n"))
    .digest("hex")
    .slice(0, 12);
  return join(root, `npm-tools-${hash}`);
}

export interface Tools {
  dir: string;
  bin(tool: NpmTool): string;
  /** true when this call installed them; false when the cache already had them. */
  installed: boolean;
}

const DONE = ".installed";

/** A child environment without pnpm's npm_* variables (they would steer the npm we start). */
function npmEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(npm_|pnpm_)/i.test(k)) env[k] = v;
  return env;
}

/**
 * The pinned tools, from the cache or installed now. Installs into a fresh directory and renames it
 * into place, so two runs at once never see half an install.
 */
export async function ensureTools(specs: readonly string[] = Object.values(NPM_TOOLS)): Promise<Tools> {
  const dir = toolsDirFor(specs);
  const tools = (installed: boolean): Tools => ({
    dir,
    installed,
    bin: (tool) => join(dir, "node_modules", ".bin", TOOL_BINS[tool]),
  });
  if (existsSync(join(dir, DONE))) return tools(false);
  const root = toolsCacheRoot();
  await mkdir(root, { recursive: true });
  const staging = await mkdtemp(join(root, "installing-"));
  try {
    await writeFile(join(staging, "package.json"), '{"name":"resmon-npm-tools","private":true}\n');
    await new Promise<void>((done, fail) => {
      execFile(
        "npm",
        ["install", "--no-audit", "--no-fund", "--no-save", ...specs],
        { cwd: staging, env: npmEnv(), timeout: 600_000, maxBuffer: 64 << 20 },
        (error, _stdout, stderr) =>
          error
            ? fail(
                new Error(`npm install failed: ${String(stderr).trim().split("\n").slice(-3).join(" | ")}`),
              )
            : done(),
      );
    });
    await writeFile(join(staging, DONE), `${specs.join("\n")}\n`);
    await rename(staging, dir).catch(async (error: unknown) => {
      // Another run finished first: use its copy.
      if (!existsSync(join(dir, DONE))) throw error;
      await rm(staging, { recursive: true, force: true });
    });
    return tools(true);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
}
