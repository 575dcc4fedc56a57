/** The benchmark's arithmetic and table, so a figure it prints is the figure it measured. */
import { describe, expect, it } from "vitest";
import { renderTable, row } from "../src/bench/report.js";
import { median, p99, quantile } from "../src/bench/stats.js";

describe("order statistics", () => {
  it("reads quantiles as the nearest rank", () => {
    const samples = Array.from({ length: 100 }, (_, i) => 100 - i); // 100..1, unsorted
    expect(median(samples)).toBe(50);
    expect(p99(samples)).toBe(99);
    expect(quantile(samples, 1)).toBe(100);
    expect(quantile([7], 0.99)).toBe(7);
    expect(Number.isNaN(median([]))).toBe(true);
  });
});

describe("the table", () => {
  it("shows value, floor, their ratio and whether the goal was met", () => {
    const text = renderTable([
      row("cold start", "ms", 120, 60, "ratio ≤ 2", true),
      row("overhead", "ms", 0.75, 1.5, "< 0.5 ms", false),
      row("rate", "/s", 900, null, "info", null),
    ]);
    const lines = text.split("\n");
    expect(lines[0]).toMatch(/^\| figure +\| value +\| floor +\| ratio +\| goal +\| pass +\|$/);
    expect(lines[2]).toContain("120 ms");
    expect(lines[2]).toContain("60.0 ms");
    expect(lines[2]).toContain("2.00×");
    expect(lines[2]).toMatch(/\| yes +\|$/);
    expect(lines[3]).toContain("0.50×");
    expect(lines[3]).toMatch(/\| NO +\|$/);
    expect(lines[4]).toMatch(/\| — +\| — +\| info +\| info +\|$/);
  });
});
