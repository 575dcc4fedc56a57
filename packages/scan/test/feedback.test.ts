import type { ScanEnvelope } from "@resmon/mcp-contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { feedbackPriority, screenBudgetOf } from "../src/feedback.js";
import { BATCH_SIZE } from "../src/profile.js";
import { corpusRig, type Rig } from "./helpers/backend.js";
import { startArgs } from "./helpers/plan.js";

type Item = { doc_id: number; title: string };

// Twelve "alpha" papers and twelve "beta" ones, sharing no word but "study"; a longer title ranks lower (BM25's length
// normalisation) and is newer, so resmon's newest-first rows put the worst first.
const filler = (topic: string, n: number) => Array.from({ length: n }, (_, i) => `${topic}${i}`).join(" ");
const records = ["alpha", "beta"].flatMap((topic) =>
  Array.from({ length: 12 }, (_, i) => ({
    id: `https://openalex.org/W${topic}${i + 1}`,
    title: `${topic} study ${filler(topic, i + 1)}`,
    year: 2000 + i,
    authors: [`Author ${topic}${i}`],
  })),
);
const rankOf = (title: string) => title.split(" ").length - 2;

let r: Rig;
beforeAll(async () => {
  r = await corpusRig(records);
});
afterAll(() => r.close());

describe("screening spent where the model's scores show papers", () => {
  it("releases each query's best page first, then deeper pages only of the query whose papers scored 3", async () => {
    const engine = r.engine();
    const args = startArgs({
      sources: ["openalex"],
      per_query: 12,
      queries: {
        criteria: [
          { id: "C1", text: "alpha" },
          { id: "C2", text: "study" },
          { id: "C3", text: "words" },
        ],
        queries: [
          { id: "Q1", kind: "direct", text: "alpha" },
          { id: "Q2", kind: "terminology", text: "beta" },
          { id: "Q3", kind: "contradictory", text: "gamma" },
          { id: "Q4", kind: "review", text: "delta" },
          { id: "Q5", kind: "mechanism", text: "epsilon" },
          { id: "Q6", kind: "adjacent", text: "zeta" },
        ],
      },
    });
    let env: ScanEnvelope = await engine.start(args);
    const batches: Item[][] = [];
    for (let i = 0; i < 100 && env.next_action !== "rank_shortlist"; i++) {
      if (env.next_action === "screen_candidates") {
        const items = (env.payload.batch as { items: Item[] }).items;
        batches.push(items);
        const screen_scores = items.map((it) => {
          const alpha = it.title.startsWith("alpha");
          return {
            doc_id: it.doc_id,
            score: alpha ? (3 as const) : (0 as const),
            criteria_hit: alpha ? ["C1"] : [],
          };
        });
        env = await engine.continue({ scan_id: args.scan_id, screen_scores });
      } else if (env.next_action === "write_gap_queries") {
        env = await engine.continue({ scan_id: args.scan_id, gap_queries: [] });
      } else {
        env = await engine.continue({ scan_id: args.scan_id });
      }
    }
    const [first] = batches;
    // A page is a query's share of one batch: six queries, four papers each.
    const QUERY_PAGE = Math.floor(BATCH_SIZE / 6);
    const topic = (items: Item[], t: string) => items.filter((it) => it.title.startsWith(t));
    // The first batch: each query's best QUERY_PAGE by resmon's ranking, not its newest.
    expect(
      topic(first ?? [], "alpha")
        .map((it) => rankOf(it.title))
        .sort((a, b) => a - b),
    ).toEqual(Array.from({ length: QUERY_PAGE }, (_, i) => i + 1));
    expect(topic(first ?? [], "beta")).toHaveLength(QUERY_PAGE);
    const all = batches.flat();
    // The query whose page scored 3 went deeper, to every alpha paper; the one that scored 0 did not.
    expect(topic(all, "alpha")).toHaveLength(12);
    expect(topic(all, "beta")).toHaveLength(QUERY_PAGE);
    expect(all.length).toBeLessThanOrEqual(screenBudgetOf(args.profile ?? "standard", args.top ?? 10));
    expect(new Set(all.map((it) => it.doc_id)).size).toBe(all.length);
  });
});

describe("relevance feedback's priority (Rocchio over resmon's ranked lists)", () => {
  it("puts a paper many relevant lists hold above one a single list ranks first, and lowers one near a paper scored 0", () => {
    const p = feedbackPriority({
      relevant: [
        [1, 2, 3],
        [4, 2, 3],
        [5, 3, 2],
      ],
      notRelevant: [[3, 6]],
    });
    const at = (id: number) => p.get(id) ?? 0;
    // 2 and 3 are on every relevant list: above 1, 4 and 5, each first on one list only.
    expect(at(2)).toBeGreaterThan(at(1));
    expect(at(3)).toBeGreaterThan(at(4));
    // 3 ranks as 2 does on the relevant lists (2nd, 3rd, 2nd against 2nd, 3rd, 3rd) but a paper scored 0 lists it.
    expect(at(2)).toBeGreaterThan(at(3));
    // A paper only a not-relevant list holds is below 0: never released.
    expect(at(6)).toBeLessThan(0);
  });

  it("gives the model's screening budget from the profile's token budget, and more to a larger one", () => {
    expect(screenBudgetOf("quick", 10)).toBeLessThan(screenBudgetOf("standard", 10));
    expect(screenBudgetOf("standard", 10)).toBeLessThan(screenBudgetOf("deep", 10));
    // Ranking a longer shortlist leaves less to screen, never less than one batch.
    expect(screenBudgetOf("standard", 25)).toBeLessThan(screenBudgetOf("standard", 10));
    expect(screenBudgetOf("quick", 25)).toBe(BATCH_SIZE);
  });
});
