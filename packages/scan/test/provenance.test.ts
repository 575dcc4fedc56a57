import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { foundBy, foundByLine } from "../src/provenance.js";
import { type Rig, rig } from "./helpers/backend.js";
import { driveToEnd } from "./helpers/model.js";
import { startArgs } from "./helpers/plan.js";

let r: Rig;
beforeEach(async () => {
  r = await rig();
});
afterEach(async () => {
  await r.close();
});

type Batch = { kind: string; items: { doc_id: number; found_by: string }[] };

describe("where each paper came from", () => {
  it("names the query's retrieval or the seed paper, once each", () => {
    const tasks = [
      { query_id: "Q1", via: "sweep" as const, status: "done", doc_ids: [1, 2] },
      { query_id: "Q1", via: "corpus" as const, status: "done", doc_ids: [9] },
      { query_id: "Q2", via: "sweep" as const, status: "failed" },
    ];
    expect(foundBy({ doc_id: 9, merged_ids: [2], query_ids: ["Q1", "similar:7"] }, tasks)).toEqual([
      "Q1 sweep",
      "Q1 corpus",
      "similar to 7",
    ]);
    // A query with no finished retrieval on record is named alone, never dropped.
    expect(foundBy({ doc_id: 5, merged_ids: [], query_ids: ["Q2"] }, tasks)).toEqual(["Q2"]);
    // The same facts in one line for an answer: grouped by how each query retrieved.
    expect(foundByLine(["Q1 sweep", "Q1 corpus", "Q3 corpus", "similar to 7", "similar to 9"])).toBe(
      "sweep Q1; corpus Q1 Q3; similar to 7, 9",
    );
    expect(foundByLine(["Q2"])).toBe("Q2");
    // At most three seeds named, the nearest first; the rest counted.
    const seeds = [3, 5, 7, 9, 11].map((id) => `similar to ${id}`);
    expect(foundByLine(seeds, 9)).toBe("similar to 9, 3, 5 and 2 more");
  });

  it("a scan announces its expansion batch, and every item, row and evidence.md entry says how it was found", async () => {
    const engine = r.engine();
    const args = startArgs();
    const seen = await driveToEnd(engine, await engine.start(args));
    expect(seen.at(-1)?.next_action).toBe("complete");
    const screens = seen.filter((e) => e.next_action === "screen_candidates");
    const batches = screens.map((e) => ({ batch: e.payload.batch as Batch, note: String(e.payload.note) }));
    const expansion = batches.filter((b) => b.batch.kind === "expansion");
    const queries = batches.filter((b) => b.batch.kind === "queries");
    // The demo scan screens its queries' papers, then the expansion's.
    expect(expansion.length).toBeGreaterThan(0);
    expect(queries.length).toBeGreaterThan(0);
    for (const b of expansion) {
      // Said before the usual instruction, so it is never read as what the queries found.
      expect(b.note).toMatch(/^This batch is the expansion: resmon's similar-papers search/);
      for (const it of b.batch.items)
        expect(it.found_by).toMatch(/(^|; )similar to \d+(, \d+){0,2}( and \d+ more)?$/);
      // Each expansion paper shows the seed it is nearest and resmon's distance from it.
      for (const it of b.batch.items as (Batch["items"][number] & { seed?: number; distance?: number })[]) {
        expect(typeof it.distance).toBe("number");
        const similar = /similar to ([\d, ]+)/.exec(it.found_by)?.[1]?.split(", ").map(Number) ?? [];
        expect(similar).toContain(it.seed);
      }
    }
    // No paper is "similar to" itself.
    for (const b of batches)
      for (const it of b.batch.items) {
        const similar = /similar to ([\d, ]+)/.exec(it.found_by)?.[1]?.split(", ").map(Number) ?? [];
        expect(similar).not.toContain(it.doc_id);
      }
    for (const b of queries) {
      expect(b.note).toMatch(/^Score every item/);
      for (const it of b.batch.items) {
        expect(it.found_by).toMatch(/^(sweep|corpus) Q\d( Q\d)*(; |$)/);
      }
    }
    const done = seen.at(-1)?.payload as { rows: { found_by: string }[]; files: { md: string } };
    for (const row of done.rows) expect(row.found_by.length).toBeGreaterThan(0);
    const md = readFileSync(done.files.md, "utf8");
    const papers = md.slice(md.indexOf("## Papers"), md.indexOf("## How the result was filled"));
    expect(papers.match(/^- Found by: /gm)?.length).toBe(done.rows.length);
    expect(md).toContain("## Where the papers came from");
    expect(md).toContain(`- Sources searched (the scan's sweeps): ${args.sources.join(", ")}.`);
    expect(md).toMatch(new RegExp(`- Sources the ${done.rows.length} papers above came from: `));
  });
});
