/** Check 3: the server tarball installed with npm into an empty directory brings no dependencies. */
import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { record } from "./report.js";
import { exec, lastLines } from "./run.js";

export async function installServer(app: string, tgz: string): Promise<boolean> {
  await writeFile(join(app, "package.json"), '{"name":"a-new-user","private":true}\n');
  const ran = await exec("npm", ["install", "--no-audit", "--no-fund", tgz], { cwd: app });
  const installed = ran.code === 0 ? await readdir(join(app, "node_modules")) : [];
  const others = installed.filter((n) => !n.startsWith(".") && n !== "@resmon");
  const scoped = installed.includes("@resmon") ? await readdir(join(app, "node_modules", "@resmon")) : [];
  const ok = ran.code === 0 && others.length === 0 && scoped.join() === "mcp-server";
  record(
    "npm install the server tarball into an empty directory",
    ok,
    ran.code === 0
      ? `installed: @resmon/${scoped.join(", @resmon/")}${others.length ? `, ${others.join(", ")}` : ""}`
      : lastLines(ran.stderr),
  );
  return ok;
}
