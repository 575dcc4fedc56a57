/**
 * The bench's pipeline figure (pipeline.ts): its stub backend answers as a resmon does (a real
 * discovery of the stand-in, its answers replayed), so the calls it times take the success path;
 * they all measured internal_error while the stub's discovery had no identity.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestkit, type Testkit } from "@resmon/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { measurePipeline } from "../src/bench/pipeline.js";

let kit: Testkit;
beforeAll(async () => {
  kit = await startTestkit({
    stateDir: mkdtempSync(join(tmpdir(), "resmon-bench-pipeline-")),
    seed: "small",
  });
}, 60_000);
afterAll(async () => {
  await kit?.stop();
  if (kit) rmSync(kit.stateDir, { recursive: true, force: true });
});

describe("the pipeline's stub backend", () => {
  it("answers as a resmon does: every measured call succeeds, in both eras", async () => {
    // measurePipeline throws at the first failed call (its stub once lacked health's identity, and
    // every call it timed was internal_error).
    const cases = await measurePipeline(kit, 5);
    expect(cases.map((c) => c.label)).toHaveLength(2);
    for (const c of cases) expect(c.modern.median).toBeGreaterThan(0);
  }, 60_000);
});
