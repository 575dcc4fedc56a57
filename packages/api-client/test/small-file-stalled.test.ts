/**
 * A read that never finishes still ends (issue 32 point 6): the budget counts only this process's
 * free time, and it is still spent when the process is free and the read is stuck. A stalled disk
 * cannot be made on demand, so `open` is stubbed to never settle.
 */
import { describe, expect, it, vi } from "vitest";
import { readSmallFile } from "../src/small-file.js";

vi.mock("node:fs/promises", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:fs/promises")>();
  return { ...real, open: () => new Promise(() => undefined) };
});

describe("a read that never finishes", () => {
  it("is a timeout once the budget of free time is spent, not a hang", async () => {
    const begun = performance.now();
    const read = await readSmallFile("/stalled/api-token-51734", 4096, 300);
    expect(read).toEqual({ ok: false, problem: "timeout" });
    // A wait can only come out longer than its budget, never shorter; the upper bound is the test's timeout.
    expect(performance.now() - begun).toBeGreaterThanOrEqual(300);
  });
});
