/**
 * What every reliability test file ends with: stop every server process it started, and fail
 * unless every byte each wrote was a JSON-RPC frame on stdout with no token, canary or stack trace.
 */
import { afterAll, expect, it } from "vitest";
import { CANARIES } from "./canaries.js";
import { removeTempDirs } from "./context.js";
import { inspectAllProcesses } from "./proc.js";
import { countCases, note } from "./record.js";

export function accountForEveryByte(): void {
  it("every byte every server process of this group wrote: frames only, no token, canary or stack trace", async (ctx) => {
    const { problems, bytes, processes } = await inspectAllProcesses();
    countCases(ctx, Math.max(1, processes));
    note(
      ctx,
      `${processes} server process(es), ${(bytes / 1e6).toFixed(1)} MB written, checked for ${CANARIES.size} canaries`,
    );
    expect(problems, problems.join("; ")).toEqual([]);
  }, 30_000);
  afterAll(removeTempDirs);
}
