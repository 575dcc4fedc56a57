/** Check 4, continued: `npx resmon-mcp doctor` from the installed tarball. */
import { join } from "node:path";
import type { Testkit } from "@resmon/testkit";
import { kitEnv } from "./launch.js";
import { record } from "./report.js";
import { cleanEnv, exec } from "./run.js";

/** `npx resmon-mcp doctor` from the installed tarball: 0 against the testkit, 1 with nothing named. */
export async function doctor(app: string, home: string, kit: Testkit): Promise<void> {
  const found = await exec("npx", ["resmon-mcp", "doctor"], {
    cwd: app,
    env: cleanEnv({ HOME: home, ...kitEnv(kit) }),
  });
  const nothing = await exec("npx", ["resmon-mcp", "doctor"], {
    cwd: app,
    env: cleanEnv({ HOME: join(home, "nobody") }),
  });
  const ok =
    found.code === 0 &&
    found.stdout.includes(kit.runtimeId) &&
    nothing.code === 1 &&
    nothing.stdout.includes("Refused (nothing_named)") &&
    !`${found.stdout}${found.stderr}${nothing.stdout}${nothing.stderr}`.includes(kit.token);
  record(
    "npx resmon-mcp doctor",
    ok,
    `exit ${found.code} against the testkit, exit ${nothing.code} with nothing named`,
  );
}
