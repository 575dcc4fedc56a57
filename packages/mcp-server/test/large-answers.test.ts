import type { ScanEngine } from "@resmon/scan";
import { describe, expect, it } from "vitest";
import {
  LARGE_ANSWERS_BUDGET_BYTES,
  reclaimAfterLargeAnswers,
  takeLargeAnswer,
} from "../src/backend/large-answers.js";
import { createScanResources } from "../src/resources.js";

const MiB = 1024 * 1024;
const settled = () => new Promise((r) => setImmediate(r));

describe("the process's budget of large answers (issue 34 point 2)", () => {
  it("6 MiB pages one at a time, in order of asking; each release reclaims, then admits the next", async () => {
    const events: string[] = [];
    reclaimAfterLargeAnswers(() => events.push("reclaim"));
    const page = 6 * MiB;
    expect(2 * page).toBeGreaterThan(LARGE_ANSWERS_BUDGET_BYTES);
    const takes = [1, 2, 3].map((n) =>
      takeLargeAnswer(page).then((release) => {
        events.push(`take ${n}`);
        return release;
      }),
    );
    await settled();
    expect(events).toEqual(["take 1"]);
    (await takes[0])?.();
    await settled();
    expect(events).toEqual(["take 1", "reclaim", "take 2"]);
    (await takes[1])?.();
    (await takes[1])?.(); // a second release gives nothing back twice
    await settled();
    expect(events).toEqual(["take 1", "reclaim", "take 2", "reclaim", "take 3"]);
    (await takes[2])?.();
  });

  it("smaller large answers share the budget; one larger than it is admitted alone", async () => {
    reclaimAfterLargeAnswers(() => undefined);
    const small = await Promise.all([
      takeLargeAnswer(2 * MiB),
      takeLargeAnswer(2 * MiB),
      takeLargeAnswer(2 * MiB),
    ]);
    let big = false;
    const huge = takeLargeAnswer(LARGE_ANSWERS_BUDGET_BYTES + MiB).then((release) => {
      big = true;
      return release;
    });
    await settled();
    expect(big).toBe(false);
    for (const release of small) release();
    (await huge)();
    expect(big).toBe(true);
  });

  it("a cancelled wait leaves the queue holding nothing", async () => {
    reclaimAfterLargeAnswers(() => undefined);
    const first = await takeLargeAnswer(6 * MiB);
    const cancel = new AbortController();
    const cancelled = takeLargeAnswer(6 * MiB, cancel.signal);
    let next = false;
    const after = takeLargeAnswer(6 * MiB).then((release) => {
      next = true;
      return release;
    });
    cancel.abort();
    (await cancelled)();
    first();
    (await after)();
    expect(next).toBe(true);
  });

  it("a resources/read takes room for the files it reads whole before reading them (issue 41)", async () => {
    reclaimAfterLargeAnswers(() => undefined);
    const read: string[] = [];
    const engine = {
      // A 4 MiB evidence.md and its 3 MiB scan.json.
      evidenceBytes: () => 7 * MiB,
      evidence: async ({ file }: { file: string }) => {
        read.push(file);
        return { text: "evidence" };
      },
    } as unknown as ScanEngine;
    const resources = createScanResources(() => engine);
    const uri = "resmon-scan://0b8e2a62-58f4-4d5a-9d8e-2f6f4f0b5a11/evidence.md";
    const page = await takeLargeAnswer(6 * MiB);
    const first = resources.read(uri);
    await settled();
    expect(read).toEqual([]);
    page();
    const answered = await first;
    expect(read).toEqual(["evidence.md"]);
    expect(answered.answer).toMatchObject({ contents: [{ uri, text: "evidence" }] });
    // Held until the read's frame has left: the next read waits for it.
    const second = resources.read(uri);
    await settled();
    expect(read).toEqual(["evidence.md"]);
    answered.release();
    (await second).release();
    expect(read).toEqual(["evidence.md", "evidence.md"]);
  });
});
