/** Check 1: `pnpm pack` each publishable package. */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { REPO_ROOT } from "../pack-snippets.js";
import { record } from "./report.js";
import { exec, lastLines } from "./run.js";

const PACKAGES = ["packages/contract", "packages/api-client", "packages/mcp-server"] as const;

export async function packAll(dest: string): Promise<Map<string, string>> {
  const tarballs = new Map<string, string>();
  for (const dir of PACKAGES) {
    const ran = await exec("pnpm", ["pack", "--pack-destination", dest], { cwd: resolve(REPO_ROOT, dir) });
    const path = ran.stdout.trim().split("\n").at(-1)?.trim() ?? "";
    const ok = ran.code === 0 && path.endsWith(".tgz") && existsSync(path);
    record(`pnpm pack ${dir}`, ok, ok ? path : lastLines(ran.stderr + ran.stdout));
    if (ok) tarballs.set(dir, path);
  }
  return tarballs;
}
