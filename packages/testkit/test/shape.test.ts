import { describe, expect, it } from "vitest";
import { shapeDiff } from "./shape.js";

describe("shapeDiff, the comparison the sample replay relies on", () => {
  it("accepts the same keys and types with different values", () => {
    expect(shapeDiff({ id: 1, name: "a", tags: ["x"] }, { id: 2, name: "b", tags: ["y", "z"] })).toEqual([]);
  });
  it("reports a missing key, an extra key and a changed type", () => {
    expect(shapeDiff({ id: 1, name: "a" }, { id: "1", extra: true })).toEqual([
      "$.id: sample is number, testkit gave string",
      "$.name: missing from the testkit's answer",
      "$.extra: not in the real answer",
    ]);
  });
  it("checks nested array items against the sample's items", () => {
    expect(shapeDiff({ rows: [{ a: 1 }] }, { rows: [{ a: 1 }, { b: 2 }] }).length).toBeGreaterThan(0);
  });
  it("lets null stand for any type, and keys of data-keyed maps differ", () => {
    expect(
      shapeDiff({ error: null, targets: { email: 1 } }, { error: "boom", targets: { feed: 2 } }),
    ).toEqual([]);
  });
});
