import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { REPO_ROOT } from "./pack-snippets.js";

const run = promisify(execFile);

/** Format files a script wrote as `pnpm lint` wants them (JSON.stringify's layout is not biome's). */
export async function formatWithBiome(paths: readonly string[]): Promise<void> {
  if (paths.length === 0) return;
  await run(resolve(REPO_ROOT, "node_modules/.bin/biome"), ["format", "--write", ...paths], {
    cwd: REPO_ROOT,
  });
}
