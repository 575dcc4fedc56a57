import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestkit, type Testkit } from "@resmon/testkit";
import { createResmonTools, type ResmonTools } from "../../src/server.js";

/** The stand-in as one resmon line (demo seed) and the tools in-process, pointed at it. */
export interface OlderKit {
  kit: Testkit;
  dir: string;
  tools: ResmonTools;
}

/** Scans (if any) go to `<dir>/scans`; `env` adds variables (a scan wait budget, say). */
export async function openOlder(
  line: "1.6" | "1.7" | "2.3",
  name: string,
  env: Record<string, string> = {},
): Promise<OlderKit> {
  const dir = mkdtempSync(join(tmpdir(), `resmon-mcp-${name}-${line}-`));
  const kit = await startTestkit({ stateDir: dir, seed: "demo", as: line });
  const tools = createResmonTools({
    env: {
      RESMON_PORT_FILE: kit.portFile ?? "",
      RESMON_STATE_DIR: dir,
      RESMON_MCP_SCAN_DATA: join(dir, "scans"),
      ...env,
    },
  });
  return { kit, dir, tools };
}

export async function closeOlder(opened: Partial<OlderKit>): Promise<void> {
  await opened.tools?.close();
  await opened.kit?.stop();
  if (opened.dir) rmSync(opened.dir, { recursive: true, force: true });
}
