import { describe, expect, it } from "vitest";
import { criteriaHit, type Relation, SCREENER_RATES, simulatedScore } from "../src/bench/screener.js";

describe("the scan-quality bench's simulated screener", () => {
  const DRAWS = 40_000;

  for (const relation of ["included", "excluded", "other"] as Relation[]) {
    it(`scores ${relation} records at its stated rates over ${DRAWS} draws`, () => {
      const counts = [0, 0, 0, 0];
      for (let i = 0; i < DRAWS; i++) {
        const s = simulatedScore(7, "Review_2020", `https://openalex.org/W${i}`, relation);
        counts[s] = (counts[s] ?? 0) + 1;
      }
      const expected = [0, 0, 0, 0];
      for (const [score, p] of SCREENER_RATES[relation]) expected[score] = p;
      // Four standard deviations of a binomial proportion at p = 0.5 over 40,000 draws is 0.01.
      for (let s = 0; s <= 3; s++)
        expect(Math.abs((counts[s] ?? 0) / DRAWS - (expected[s] ?? 0))).toBeLessThan(0.01);
    });
  }

  it("gives the same paper the same score under one seed, and draws afresh under another", () => {
    const works = Array.from({ length: 200 }, (_, i) => `W${i}`);
    const a = works.map((w) => simulatedScore(1, "R", w, "excluded"));
    expect(works.map((w) => simulatedScore(1, "R", w, "excluded"))).toEqual(a);
    expect(works.map((w) => simulatedScore(2, "R", w, "excluded"))).not.toEqual(a);
  });

  it("marks criteria by the score", () => {
    expect(criteriaHit(3, ["C1", "C2", "C3"])).toEqual(["C1", "C2", "C3"]);
    expect(criteriaHit(2, ["C1", "C2", "C3"])).toEqual(["C1", "C2"]);
    expect(criteriaHit(1, ["C1", "C2", "C3"])).toEqual(["C1"]);
    expect(criteriaHit(0, ["C1", "C2", "C3"])).toEqual([]);
  });
});
