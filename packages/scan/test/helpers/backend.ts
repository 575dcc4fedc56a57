import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createResmonClient, type ResmonClient } from "@resmon/api-client";
import { startTestkit, type Testkit } from "@resmon/testkit";
import { createScanEngine, type ScanEngine, type ScanEngineOptions } from "../../src/index.js";

export interface Rig {
  kit: Testkit;
  client: ResmonClient;
  dataDir: string;
  engine: (opts?: Partial<ScanEngineOptions>) => ScanEngine;
  sweepPosts: () => number;
  close: () => Promise<void>;
}

/** An in-process stand-in backend, a client on it, and a fresh scan data dir. */
export async function rig(seed: "demo" | "small" = "demo"): Promise<Rig> {
  const base = mkdtempSync(join(tmpdir(), "scan-test-"));
  const kit = await startTestkit({ stateDir: join(base, "state"), seed });
  kit.setAdmission({ runDurationMs: 60 });
  const client = createResmonClient({ port: kit.port, token: kit.token });
  const dataDir = join(base, "scans");
  return {
    kit,
    client,
    dataDir,
    engine: (opts = {}) =>
      createScanEngine({ connect: async () => client, dataDir, waitMs: 8000, pollMs: 20, ...opts }),
    sweepPosts: () =>
      kit.requests.filter((r) => r.method === "POST" && r.route === "/api/search/sweep").length,
    close: async () => {
      await client.close();
      await kit.stop();
      rmSync(base, { recursive: true, force: true });
    },
  };
}
