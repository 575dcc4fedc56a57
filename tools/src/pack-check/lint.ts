/** Check 2: publint on every tarball; are-the-types-wrong (esm-only profile) on the two libraries. */
import type { Tools } from "../npm-tools.js";
import { record } from "./report.js";
import { exec, lastLines } from "./run.js";

export async function lintTarballs(tools: Tools, tarballs: Map<string, string>): Promise<void> {
  await Promise.all(
    [...tarballs].map(async ([dir, tgz]) => {
      const lint = await exec(tools.bin("publint"), ["run", tgz, "--strict"], { cwd: tools.dir });
      record(`publint ${dir}`, lint.code === 0, lastLines(lint.stdout + lint.stderr, 2));
      if (dir === "packages/mcp-server") return; // a bin-only package: no types to check
      const attw = await exec(tools.bin("attw"), [tgz, "--profile", "esm-only", "--format", "ascii"], {
        cwd: tools.dir,
      });
      record(
        `are-the-types-wrong ${dir}`,
        attw.code === 0,
        attw.code === 0 ? "esm-only profile" : lastLines(attw.stdout),
      );
    }),
  );
}
