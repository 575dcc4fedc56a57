/** resmon's real execution rows (../shared/resmon/samples) read per source: answered only where resmon said so. */
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { outcomeIn, sweepCoverageOf } from "../src/coverage.js";

const SAMPLES = resolve(import.meta.dirname, "../../../../shared/resmon/samples");

function row(variant: string): Record<string, unknown> {
  const file = resolve(SAMPLES, `GET__api_executions_{exec_id}.${variant}.json`);
  return JSON.parse(readFileSync(file, "utf8")).response.body;
}

describe.skipIf(!existsSync(SAMPLES))("coverage read from what the real resmon answered", () => {
  it("the captured sweep resmon finished 'completed' with 0 results: arxiv is unknown, never answered", () => {
    const cov = sweepCoverageOf(row("after-sweep-final"));
    expect(outcomeIn(cov, "arxiv")).toBe("unknown");
    expect(cov.sources[0]).toMatchObject({ label: "zero, reason not recorded", zero_reason: null });
    expect(cov.summary).toContain("1 returned nothing for a reason resmon did not record.");
  });

  it("a recorded non-answer, a running run's unrecorded outcome, and a mixed run, each as resmon said", () => {
    expect(outcomeIn(sweepCoverageOf(row("after-sweep-final.registry-race")), "arxiv")).toBe("non_answer");
    expect(outcomeIn(sweepCoverageOf(row("after-sweep-5s")), "arxiv")).toBe("unknown");
    const mixed = sweepCoverageOf(row("1-completed"));
    expect(["arxiv", "ieee", "openalex", "semantic_scholar"].map((s) => outcomeIn(mixed, s))).toEqual([
      "answered",
      "unknown",
      "answered",
      "unknown",
    ]);
    // A source the run's coverage does not list is not reported, not answered.
    expect(outcomeIn(mixed, "pubmed")).toBe("not_reported");
  });

  it("a run with no coverage at all is not_reported for every source", () => {
    const { coverage: _c, source_outcomes: _o, ...bare } = row("1-completed");
    const cov = sweepCoverageOf(bare);
    expect(cov.reported).toBe(false);
    expect(outcomeIn(cov, "arxiv")).toBe("not_reported");
  });
});
