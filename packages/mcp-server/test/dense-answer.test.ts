/**
 * A reply well under the body ceiling can still be hostile: a million malformed rows; and so can an
 * argument line well under the line limit. Both checks stop at the first issue, so the call is
 * refused at once rather than building an issue per row (before the fix: about 11 s for this reply
 * on a loaded 2-core machine, after it under 1 s).
 */
import { describe, expect, it } from "vitest";
import { useFakeSession } from "./helpers/fake-session.js";

const ROWS = 1_500_000;
const { call } = useFakeSession(() => ({
  status: 200,
  body: { findings: Array.from({ length: ROWS }, () => ({})), counts: {}, cannot_judge: [] },
}));

describe("a dense malformed reply under the ceiling", () => {
  it("is upstream_error naming the first bad field, without an issue per row", {
    timeout: 60_000,
  }, async () => {
    const started = Date.now();
    const { body } = await call("get_watchdog_findings", {});
    const elapsed = Date.now() - started;
    expect(body.error).toBe("upstream_error");
    expect(body.detail).toEqual({ field: "findings.0.severity" });
    // Serialising and parsing the reply itself takes a few seconds on a loaded machine; an issue
    // per row took several times that.
    expect(elapsed).toBeLessThan(5_000);
  });
});

describe("a dense malformed argument under the line limit", () => {
  it("is invalid_argument naming the first bad item, without an issue per item", {
    timeout: 60_000,
  }, async () => {
    const started = Date.now();
    const { body } = await call("search_corpus", { query: "a", sources: Array(ROWS).fill(1) });
    const elapsed = Date.now() - started;
    expect(body.error).toBe("invalid_argument");
    expect(body.detail).toMatchObject({ field: "sources.0" });
    expect(elapsed).toBeLessThan(5_000);
  });
});
