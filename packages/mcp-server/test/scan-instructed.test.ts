import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  followInstructions,
  type ListedTool,
  type SourceMode,
  scanStartArgs,
  startTestkit,
  type Testkit,
} from "@resmon/testkit";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { admittedSweeps, openScanSession, randomScanId, type ScanSession } from "./helpers/scan-session.js";
import { HAVE_CLI } from "./helpers/spawn.js";

/**
 * Issue 29's "done when": a scripted model that reads only the server's instructions and tools/list
 * and does exactly what next_action says (@resmon/testkit's followInstructions, which learns the call
 * for each next_action from the instructions' text) finishes a scan on the stand-in in every coverage
 * category, without a loop, and never sends resmon more than two rounds of sweeps for one plan.
 */
let kit: Testkit;
let dir: string;
let dataDir: string;
let session: ScanSession;
let lesson: { instructions: string; tools: ListedTool[] };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "resmon-mcp-instructed-"));
  dataDir = join(dir, "scans");
  kit = await startTestkit({ stateDir: dir, seed: "demo" });
  kit.setAdmission({ runDurationMs: 100 });
  session = await openScanSession(kit, dataDir, {
    RESMON_MCP_SCAN_WAIT_MS: "3000",
    RESMON_MCP_SCAN_RETRY_WAIT_MS: "200",
  });
  const { tools } = await session.client.listTools();
  lesson = { instructions: session.client.getInstructions() ?? "", tools: tools as ListedTool[] };
}, 60_000);

afterAll(async () => {
  await session?.close();
  await kit?.stop();
  rmSync(dir, { recursive: true, force: true });
});

afterEach(() => kit.setSourceOutcome("*", null));

const QUERIES = 6;

describe.skipIf(!HAVE_CLI)("a model that knows only the instructions and tools/list", () => {
  it.each([
    // [category, the stand-in's mode for every source, sweeps sent, the first line of the evidence]
    ["answered", null, QUERIES, /^# Evidence: scan \S+$/],
    ["genuine empty", "empty", QUERIES, /found nothing/],
    ["non-answer", "no_answer", 2 * QUERIES, /found nothing/],
    ["unknown", "unrecorded", 2 * QUERIES, /found nothing/],
    ["not reported", "missing", 2 * QUERIES, /found nothing/],
  ] as [string, SourceMode | null, number, RegExp][])(
    "%s: finishes the scan by next_action alone, sweeps counted",
    async (_category, mode, sweeps, firstLine) => {
      if (mode) kit.setSourceOutcome("*", mode);
      const from = kit.requests.length;
      const scanId = randomScanId();
      const { calls, final } = await followInstructions(session.call, lesson, scanStartArgs({ scanId }), {
        maxCalls: 40,
      });
      expect(final).toMatchObject({ scan_id: scanId, phase: "complete", next_action: "complete" });
      const sent = [...admittedSweeps(kit, from).values()].reduce((n, k) => n + k, 0);
      expect(sent).toBe(sweeps);
      // No plan's sweeps go out more than twice (the first round and one retry).
      for (const [query, n] of admittedSweeps(kit, from)) expect(n, query).toBeLessThanOrEqual(2);
      expect(calls.length).toBeLessThan(40);
      const md = readFileSync(join(dataDir, scanId, "evidence.md"), "utf8");
      expect(md.split("\n")[0]).toMatch(firstLine);
    },
    180_000,
  );
});
