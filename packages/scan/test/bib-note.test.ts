import { describe, expect, it } from "vitest";
import { bibNote, withBibNote } from "../src/bib-note.js";

const ok = {
  verified: true,
  no_record: false,
  record_changed: [],
  mismatches: [],
  lifecycle_unchecked: false,
};
const resmonEntry = [
  "@article{lovelace2026attention,",
  "  title = {Attention over sparse graphs},",
  "  year = {2026},",
  "  note = {Retrieved via resmon from semantic\\_scholar},",
  "  keywords = {cs.LG}",
  "}",
].join("\n");

describe("the .bib marks what evidence.md marks", () => {
  it("says nothing for a verified paper whose lifecycle was checked", () => {
    expect(bibNote(ok)).toBeNull();
    expect(withBibNote(resmonEntry, null)).toBe(resmonEntry);
  });

  it("names why a paper is unverified, and an unchecked retraction status", () => {
    expect(bibNote({ ...ok, verified: false, mismatches: [{ field: "title" }, { field: "year" }] })).toBe(
      "UNVERIFIED against resmon's record: cited title, year differ from resmon's record - check manually",
    );
    expect(bibNote({ ...ok, lifecycle_unchecked: true })).toBe("retraction status not checked");
    expect(bibNote({ ...ok, verified: false, no_record: true, lifecycle_unchecked: true })).toBe(
      "UNVERIFIED against resmon's record: resmon has no record of it - check manually. retraction status not checked",
    );
  });

  it("keeps resmon's own note and adds ours after it", () => {
    const out = withBibNote(resmonEntry, "retraction status not checked");
    expect(out).toContain(
      "  note = {Retrieved via resmon from semantic\\_scholar. retraction status not checked},\n  keywords = {cs.LG}",
    );
    expect(out.match(/note =/g)).toHaveLength(1);
  });

  it("adds a note field to an entry without one, and never writes a brace of its own", () => {
    const entry = "@article{x,\n  title = {T},\n  year = {2026}\n}";
    expect(withBibNote(entry, "a {b} \\c")).toBe(
      "@article{x,\n  title = {T},\n  year = {2026},\n  note = {a b c}\n}",
    );
  });
});
