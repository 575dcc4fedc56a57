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

describe("sources as resmon's dispatcher will use them (issue 41 point 8)", () => {
  const FIXTURE_ROW = {
    ...STORED,
    // Routine 2 as resmon 2.3's own fixture stores it (samples/GET__api_routines_{routine_id}.2.json).
    parameters: '{"keywords": "retraction", "sources": ["europepmc"]}',
    missed_fires: MISSED,
  };

  it("sources stored under `sources` are not claimed: sources [] and a note naming the key and its value", () => {
    for (const answer of [routineRow(FIXTURE_ROW, true), routineRecord(FIXTURE_ROW, true)]) {
      expect(answer.sources).toEqual([]);
      expect(answer.sources_note).toContain('`sources` (["europepmc"])');
      expect(answer.sources_note).toContain("a key resmon does not read");
      expect(answer.sources_note).toContain("searches no source");
      expect(answer.not_reported ?? []).not.toContain("sources");
    }
  });

  it("`repositories` is what is reported, deduplicated; beside it an unread `sources` is named", () => {
    const row = routineRow(
      {
        ...STORED,
        parameters: '{"query": "q", "repositories": ["arxiv", "arxiv", "pubmed"], "sources": ["x"]}',
      },
      false,
    );
    expect(row.sources).toEqual(["arxiv", "pubmed"]);
    expect(row.sources_note).toContain('`sources` (["x"])');
    expect(routineRow({ ...STORED, missed_fires: MISSED }, true)).not.toHaveProperty("sources_note");
  });

  it("the singular `repository` is read, as resmon's saved selection reads it", () => {
    expect(
      routineRow({ ...STORED, parameters: '{"query": "q", "repository": "arxiv"}' }, false).sources,
    ).toEqual(["arxiv"]);
  });

  it.each([
    ["empty", "[]"],
    ["not a list", '"arxiv"'],
    ["a non-identifier", '["all"]'],
  ])("`repositories` %s: sources [] with a note saying a run searches no source", (_w, value) => {
    const row = routineRow({ ...STORED, parameters: `{"query": "q", "repositories": ${value}}` }, false);
    expect(row.sources).toEqual([]);
    expect(row.sources_note).toContain("empty or malformed");
  });

  it("no source key at all: sources [] and a note; unreadable parameters stay not reported", () => {
    const none = routineRow({ ...STORED, parameters: '{"query": "q"}' }, false);
    expect(none.sources).toEqual([]);
    expect(none.sources_note).toContain("hold no `repositories`");
    const unreadable = routineRow({ ...STORED, parameters: "{not json" }, false);
    expect(unreadable).not.toHaveProperty("sources");
    expect(unreadable.not_reported).toContain("sources");
  });
});
