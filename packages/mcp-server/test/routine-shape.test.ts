/**
 * A routine as resmon stored it, read into the answer: what resmon did not send is named in
 * not_reported, never a null, zero or false (issue 15), and missed fires are held to the resmon that
 * serves them (issue 21: 2.3+ reports them on every routine, 1.6/1.7 never had them).
 */
import { describe, expect, it } from "vitest";
import { missedFiresProblem, routineRecord, routineRow } from "../src/shape/routine.js";

const STORED = {
  id: 3,
  name: "Graph papers",
  schedule_cron: "0 8 * * *",
  parameters: '{"query": "graph", "repositories": ["arxiv"]}',
  is_active: 1,
  last_executed_at: "2026-03-01 08:00:00",
  last_status: "completed",
};
const MISSED = { count: 2, last_due_at_utc: "2026-03-01T08:14:00+00:00" };

describe("a routine's text columns", () => {
  it("a column resmon did not send is not reported, not null (which would read 'never run')", () => {
    const { last_executed_at: _l, last_status: _s, schedule_cron: _c, ...bare } = STORED;
    const row = routineRow({ ...bare, missed_fires: MISSED }, true);
    for (const key of ["last_run", "last_status", "schedule"]) expect(row).not.toHaveProperty(key);
    expect(row.not_reported).toEqual(["schedule", "last_run", "last_status"]);
    const record = routineRecord({ ...bare, missed_fires: MISSED, missed_fire_details: [] }, true);
    expect(record).not.toHaveProperty("schedule");
    expect(record.not_reported).toEqual(["schedule"]);
  });

  it("a null resmon sent is passed on as null (never run), not named", () => {
    const row = routineRow({ ...STORED, last_executed_at: null, missed_fires: MISSED }, true);
    expect(row.last_run).toBeNull();
    expect(row).not.toHaveProperty("not_reported");
  });
});

describe("missed fires, by the resmon that serves them", () => {
  it("resmon 2.3+: passed on as sent; absent or unreadable is a problem, never a zero", () => {
    expect(routineRow({ ...STORED, missed_fires: MISSED }, true).missed_fires).toEqual(MISSED);
    expect(missedFiresProblem({ ...STORED, missed_fires: MISSED }, true)).toBeNull();
    expect(missedFiresProblem(STORED, true)).toMatch(/absent.*2\.3/);
    expect(missedFiresProblem({ ...STORED, missed_fires: { count: "2" } }, true)).toMatch(/count/);
    // Without its last due time it is unreadable, not "never due".
    expect(missedFiresProblem({ ...STORED, missed_fires: { count: 2 } }, true)).toMatch(/last_due_at_utc/);
    const row = routineRow(STORED, true);
    expect(row).not.toHaveProperty("missed_fires");
    expect(row).not.toHaveProperty("not_reported");
  });

  it("before 2.3: absent is named in not_reported (row and detail); sent unreadable is still a problem", () => {
    expect(missedFiresProblem(STORED, false)).toBeNull();
    const row = routineRow(STORED, false);
    expect(row).not.toHaveProperty("missed_fires");
    expect(row.not_reported).toEqual(["missed_fires"]);
    const record = routineRecord({ ...STORED, is_active: true }, false);
    expect(record).not.toHaveProperty("missed_fires");
    expect(record.not_reported).toEqual(["missed_fires", "missed_fire_details"]);
    expect(missedFiresProblem({ ...STORED, missed_fires: null }, false)).not.toBeNull();
  });
});
