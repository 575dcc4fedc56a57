import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { followScan, scanStartArgs, startTestkit, type Testkit } from "@resmon/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admittedSweeps, filesUnder, openScanSession, randomScanId } from "./helpers/scan-session.js";
import { HAVE_CLI } from "./helpers/spawn.js";

/**
 * kill -9 of the server mid-call, then a new server on the same data dir: the scan polls back to a
 * consistent phase, no sweep is started twice, and the dead server's lock does not hold it up.
 */
let kit: Testkit;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "resmon-mcp-scan-crash-"));
  kit = await startTestkit({ stateDir: dir, seed: "demo" });
  // Room for all six sweeps at once, so "every sweep admitted" is a moment the test can wait for.
  kit.setAdmission({ maxConcurrent: 8, runDurationMs: 200 });
}, 30_000);

afterAll(async () => {
  await kit?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function until(check: () => boolean, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 20));
  }
}

const lockFiles = (dataDir: string) => filesUnder(dataDir).filter((f) => /lock/i.test(f));

describe.skipIf(!HAVE_CLI)("kill -9 mid-call", () => {
  it.each([
    ["while the call waits on its sweeps", "waiting"],
    ["while a sweep's POST is in flight (resmon admits it after the server died)", "posting"],
  ] as const)(
    "%s: a new server polls back to a consistent phase, no sweep started twice, the stale lock cleared",
    async (_label, when) => {
      const dataDir = join(dir, `scans-${when}`);
      const from = kit.requests.length;
      kit.holdRuns();
      // The second sweep's POST is answered 1.5 s late: long enough to kill the server meanwhile.
      if (when === "posting")
        kit.setFault("/api/search/sweep", { kind: "delay", ms: 1500 }, { method: "POST" });
      const first = await openScanSession(kit, dataDir, { RESMON_MCP_SCAN_WAIT_MS: "20000" });
      const scanId = randomScanId();
      const args = scanStartArgs({ scanId });
      const pending = first.call("scan_start", args).catch((err: unknown) => err);
      if (when === "waiting") {
        await until(() => admittedSweeps(kit, from).size === 6);
      } else {
        await until(() =>
          kit.requests.slice(from).some((r) => r.route === "/api/search/sweep" && r.status === 0),
        );
      }
      await new Promise((r) => setTimeout(r, 100));
      expect(lockFiles(dataDir).length, filesUnder(dataDir).join(", ")).toBeGreaterThan(0);
      process.kill(first.pid, "SIGKILL");
      await pending;
      await first.close().catch(() => undefined);
      kit.clearFaults();
      // Let every sweep the dead server asked for be admitted and end.
      await new Promise((r) => setTimeout(r, 1700));
      kit.releaseRuns();

      const second = await openScanSession(kit, dataDir, { RESMON_MCP_SCAN_WAIT_MS: "3000" });
      try {
        const polled = await second.call("scan_continue", { scan_id: scanId });
        expect(polled.ok, JSON.stringify(polled.body)).toBe(true);
        expect(["retrieve", "screen", "gap", "rank"]).toContain(polled.body.phase);
        const { final } = await followScan(second.call, args);
        expect(final.phase).toBe("complete");
        const sweeps = admittedSweeps(kit, from);
        expect(sweeps.size).toBe(6);
        for (const [query, n] of sweeps) expect(n, query).toBe(1);
        expect(lockFiles(dataDir)).toEqual([]);
        expect(existsSync(join(dataDir, scanId, "evidence.json"))).toBe(true);
      } finally {
        await second.close();
      }
    },
    120_000,
  );
});
