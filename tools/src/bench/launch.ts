/** How the benchmark starts the server: the built bin, and the packed tarball installed as npx would. */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { TOOLS } from "@resmon/mcp-contract";
import type { Launch } from "./coldstart.js";

/** The floor server (floor-server.mjs) as is, given the contract table's tool count (the tests). */
export function floorServer(): Launch {
  return {
    command: process.execPath,
    args: [join(import.meta.dirname, "floor-server.mjs"), String(TOOLS.length)],
  };
}

const run = promisify(execFile);
const require = createRequire(import.meta.url);

function serverPackageDir(): string {
  return dirname(require.resolve("@resmon/mcp-server/package.json"));
}

function binOf(pkg: { bin?: string | Record<string, string> }): string | undefined {
  return typeof pkg.bin === "string" ? pkg.bin : pkg.bin?.["resmon-mcp"];
}

/** The bin named in @resmon/mcp-server's package.json, as built by `pnpm build`. */
export function builtServer(): Launch {
  const dir = serverPackageDir();
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
    bin?: string | Record<string, string>;
  };
  const bin = binOf(pkg);
  if (!bin) throw new Error("@resmon/mcp-server names no resmon-mcp bin");
  const path = join(dir, bin);
  if (!existsSync(path)) throw new Error(`${path} is missing: run pnpm build first`);
  return { command: process.execPath, args: [path] };
}

/**
 * The floor server (floor-server.mjs) bundled by the server's own build.mjs into `workDir`: the same
 * esbuild settings, shims and CommonJS output as the bin, so the two start alike.
 */
export async function builtFloorServer(workDir: string): Promise<Launch> {
  const out = join(workDir, "floor-server.cjs");
  const entry = join(import.meta.dirname, "floor-server.mjs");
  await run(process.execPath, [join(serverPackageDir(), "build.mjs"), "--floor", entry, out]);
  return { command: process.execPath, args: [out, String(TOOLS.length)] };
}

export type Packed = { ok: true; launch: Launch } | { ok: false; reason: string };

/**
 * `pnpm pack` the server, then install the tarball into an empty prefix with npm (which is what
 * `npx -y <tarball>` does before it runs the bin) and start its bin the way npx does: by the
 * .bin link and its shebang. Only possible once the package stands alone (no workspace deps).
 */
export async function packedServer(workDir: string): Promise<Packed> {
  const dir = serverPackageDir();
  const dest = join(workDir, "pack");
  mkdirSync(dest, { recursive: true });
  try {
    const { stdout } = await run("pnpm", ["pack", "--pack-destination", dest], { cwd: dir });
    const tarball = stdout.trim().split("\n").pop() ?? "";
    await run("tar", ["-xzf", tarball, "-C", dest, "package/package.json"]);
    const pkg = JSON.parse(readFileSync(join(dest, "package", "package.json"), "utf8")) as {
      dependencies?: Record<string, string>;
    };
    const workspaceDeps = Object.keys(pkg.dependencies ?? {}).filter((name) => name.startsWith("@resmon/"));
    if (workspaceDeps.length > 0) {
      return {
        ok: false,
        reason: `the packed package still depends on ${workspaceDeps.join(", ")} (not bundled)`,
      };
    }
    const prefix = join(dest, "npx");
    mkdirSync(prefix, { recursive: true });
    await run("npm", ["install", "--prefix", prefix, "--no-audit", "--no-fund", "--loglevel=error", tarball]);
    const bin = join(prefix, "node_modules", ".bin", "resmon-mcp");
    if (!existsSync(bin)) return { ok: false, reason: "the installed tarball has no resmon-mcp bin" };
    return { ok: true, launch: { command: bin, args: [] } };
  } catch (error) {
    return {
      ok: false,
      reason: `pack/install failed: ${error instanceof Error ? error.message.split("\n")[0] : "error"}`,
    };
  }
}
