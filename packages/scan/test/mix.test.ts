import { describe, expect, it } from "vitest";
import { MIN_WORK_MS } from "../src/call.js";
import { chooseMix, foundationalNote, type MixPaper, mixWords } from "../src/mix.js";
import { rig } from "./helpers/backend.js";
import { startArgs } from "./helpers/plan.js";

interface Paper extends MixPaper {
  author: string;
}

function paper(
  rank: number,
  opts: { role?: string; outside?: boolean; author?: string; retracted?: boolean } = {},
) {
  return {
    entry: { doc_id: 1000 + rank, rank, ...(opts.role ? { role: opts.role } : {}) },
    candidate: { out_of_window: opts.outside ?? false },
    verdict: { retraction: opts.retracted ? { label: "retracted" } : null },
    author: opts.author ?? `author${rank}`,
  } satisfies Paper;
}
const byAuthor = (p: Paper) => p.author;
const ranksOf = (list: { paper: Paper }[]) => list.map((x) => x.paper.entry.rank);

describe("chooseMix: which papers, in which slot, and why the rest were left out", () => {
  it("the issue's recent-work brief: ranks 1, 2, then the review and two foundational slots; 3–24 left for want of room", () => {
    const ranked = [
      ...Array.from({ length: 24 }, (_, i) => paper(i + 1)),
      paper(25, { role: "review" }),
      paper(26, { outside: true }),
      paper(27, { outside: true }),
    ];
    const mix = chooseMix(ranked, 5, 2, byAuthor);
    expect(mix.chosen.map((c) => [c.paper.entry.rank, c.slot])).toEqual([
      [1, "core"],
      [2, "core"],
      [25, "review"],
      [26, "foundational"],
      [27, "foundational"],
    ]);
    expect(ranksOf(mix.leftOut)).toEqual(Array.from({ length: 22 }, (_, i) => i + 3));
    expect(new Set(mix.leftOut.map((l) => l.reason))).toEqual(new Set(["no_room"]));
    expect(mixWords(mix, 5, "2024-01")).toBe(
      "5 of 5 places: 1 review, 2 foundational (outside the window from 2024-01), 2 by rank; 22 ranked papers left out (22 for want of room).",
    );
  });

  it("every sentence true: unused foundational slots are said, a backfill says why the paper above it could not take the place, no reserved slot is claimed when none was", () => {
    // foundational 1, no paper outside the window: the slot is unused, and the result says so.
    const plain = chooseMix([paper(1), paper(2), paper(3), paper(4)], 2, 1, byAuthor);
    expect(plain.chosen.map((c) => c.slot)).toEqual(["core", "core"]);
    expect(plain.foundationalUnused).toBe(1);
    expect(mixWords(plain, 2, null)).toContain("1 foundational slot unused");
    for (const l of plain.leftOut) expect(l.words).not.toContain("reserved");
    // The only paper outside the window is refused by the author cap: the slots stay empty, and the
    // backfill that follows names the author cap, not an empty slot.
    const capped = chooseMix(
      [
        paper(1, { author: "Smith", role: "review" }),
        paper(2, { author: "Smith", role: "contradicting" }),
        paper(3, { author: "Smith", outside: true }),
        paper(4),
        paper(5),
      ],
      4,
      2,
      byAuthor,
    );
    expect(capped.foundationalUnused).toBe(2);
    const backfill = capped.chosen.filter((c) => c.slot === "backfill");
    expect(backfill.length).toBeGreaterThan(0);
    for (const b of backfill) expect(b.words).toContain("first author already had 2 papers");
  });

  it("a paper that takes the place of a better-ranked one left out is backfill, and the one left out says why", () => {
    const ranked = [
      paper(1, { author: "Smith" }),
      paper(2, { author: "Smith" }),
      paper(3, { author: "Smith" }),
      paper(4, { outside: true }),
      paper(5),
      paper(6),
    ];
    const mix = chooseMix(ranked, 3, 0, byAuthor);
    expect(mix.chosen.map((c) => [c.paper.entry.rank, c.slot])).toEqual([
      [1, "core"],
      [2, "core"],
      [5, "backfill"],
    ]);
    expect(mix.leftOut.map((l) => [l.paper.entry.rank, l.reason])).toEqual([
      [3, "author_cap"],
      [4, "outside_window"],
      [6, "no_room"],
    ]);
  });

  it("retractions are neither chosen nor listed as left out (they are listed apart)", () => {
    const mix = chooseMix([paper(1, { retracted: true }), paper(2)], 2, 0, byAuthor);
    expect(ranksOf(mix.chosen)).toEqual([2]);
    expect(mix.leftOut).toEqual([]);
    expect(mixWords(mix, 2, null)).toBe("1 of 2 places: 1 by rank.");
  });
});

describe("a window with foundational slots is said when the scan starts", () => {
  const window = { since: "2024-01", until: null, foundational: 2, top: 10 };
  it("says how many places older papers may take, and how to keep recent work only", () => {
    expect(foundationalNote(window, true)).toBe(
      "foundational: 2 (the default) keeps up to 2 of the 10 places for papers outside the window (from 2024-01) or ranked foundational, whatever their rank, so older papers can take places from better-ranked ones in the window. If the person wants recent work only, ask them, then start a new scan (a new scan_id) with foundational: 0.",
    );
    expect(foundationalNote({ ...window, foundational: 0 }, false)).toBeNull();
    expect(foundationalNote({ ...window, since: null }, true)).toBeNull();
  });

  it("on the answer that starts a scan with a window, not on one without, nor on a resume", async () => {
    const r = await rig();
    try {
      const engine = r.engine({ waitMs: 100 });
      const args = startArgs({ since: "2024-01" });
      const first = await engine.start(args);
      expect(String(first.payload.foundational_note)).toMatch(
        /^foundational: 2 \(the default\) keeps up to 2 of/,
      );
      expect((await engine.start(args)).payload.foundational_note).toBeUndefined();
      const none = await engine.start(startArgs({ since: "2024-01", foundational: 0 }));
      expect(none.payload.foundational_note).toBeUndefined();
    } finally {
      await r.close();
    }
  });
  it("on the starting answer when its wait budget runs out under a request too", async () => {
    // A loaded machine did this by itself: past MIN_WORK_MS, a request is cut and the call answers
    // what it recorded (the note was missing then). Here the first sweep outlasts that time.
    const r = await rig();
    try {
      r.kit.setFault(
        "/api/search/sweep",
        { kind: "delay", ms: MIN_WORK_MS + 500 },
        { method: "POST", times: 1 },
      );
      const first = await r.engine({ waitMs: 0 }).start(startArgs({ since: "2024-01" }));
      expect(first.next_action).toBe("await_retrieval");
      expect(String(first.payload.foundational_note)).toMatch(
        /^foundational: 2 \(the default\) keeps up to 2 of/,
      );
    } finally {
      await r.close();
    }
  });
});
