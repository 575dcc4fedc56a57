/**
 * resources/list reads each listed scan's scan.json whole (it lists only what a read serves), so it
 * takes room for the largest in the budget of large answers first, as scan_result does (issue 41:
 * every file read counts against one bound). The engine is a stand-in here: what matters is the order.
 */
import type { EvidencePage, ScanEngine } from "@resmon/scan";
import { describe, expect, it } from "vitest";
import { LARGE_ANSWERS_BUDGET_BYTES, takeLargeAnswer } from "../src/backend/large-answers.js";
import { createScanResources } from "../src/resources.js";

const MiB = 1024 * 1024;

function engineReading(stateBytes: number, reads: string[]): () => ScanEngine {
  const engine = {
    listEvidenceStateBytes: () => stateBytes,
    listEvidence: async (): Promise<EvidencePage> => {
      reads.push("listed");
      return { files: [] };
    },
  } as unknown as ScanEngine;
  return () => engine;
}

describe("resources/list and the budget of large answers", () => {
  it("a page that reads a 31.5 MiB scan.json waits for room while the budget is held, then lists", async () => {
    const reads: string[] = [];
    const resources = createScanResources(engineReading(31.5 * MiB, reads));
    const held = await takeLargeAnswer(LARGE_ANSWERS_BUDGET_BYTES);
    const listing = resources.list(undefined);
    try {
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(reads).toEqual([]);
    } finally {
      held();
    }
    expect(await listing).toEqual({ resources: [] });
    expect(reads).toEqual(["listed"]);
    // Its room went back: the budget admits the next large answer at once.
    const next = await Promise.race([
      takeLargeAnswer(LARGE_ANSWERS_BUDGET_BYTES),
      new Promise<null>((resolve) => setTimeout(() => resolve(null), 1000)),
    ]);
    expect(next).not.toBeNull();
    next?.();
  });

  it("a page of small scans lists at once, whatever the budget holds", async () => {
    const reads: string[] = [];
    const resources = createScanResources(engineReading(64 * 1024, reads));
    const held = await takeLargeAnswer(LARGE_ANSWERS_BUDGET_BYTES);
    try {
      expect(await resources.list(undefined)).toEqual({ resources: [] });
    } finally {
      held();
    }
  });
});
