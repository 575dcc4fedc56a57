/** The pinned npm CLIs the checks run (npm-tools.ts), installed once into a cache directory. */
import { ensureTools, type Tools } from "../npm-tools.js";
import { record } from "./report.js";

export async function installTools(): Promise<Tools | undefined> {
  const started = performance.now();
  try {
    const tools = await ensureTools();
    const secs = ((performance.now() - started) / 1000).toFixed(1);
    record(
      "the pinned npm CLIs",
      true,
      `${tools.installed ? `installed in ${secs} s` : "from the cache"}: ${tools.dir}`,
    );
    return tools;
  } catch (error) {
    record("the pinned npm CLIs", false, error instanceof Error ? error.message : "install failed");
    return undefined;
  }
}
