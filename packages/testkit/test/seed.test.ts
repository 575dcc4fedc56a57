/**
 * The seeded corpus reads like one: titles are phrases a person would write, each carrying its
 * topic's words (which is how the seed and a keyword search find a topic), and semantic distances
 * spread out with the query instead of tying.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Testkit } from "../src/index.js";
import { buildStore } from "../src/seed/index.js";
import { TOPICS } from "../src/seed/topics.js";
import { arr, call, obj, startKit } from "./helpers.js";

const carries = (title: string, words: readonly string[]) =>
  words.every((w) => title.toLowerCase().includes(w));

describe("seeded titles", () => {
  const papers = buildStore("demo").papers.slice(8);

  it("every generated title carries exactly one topic's words", () => {
    for (const p of papers) {
      const topics = TOPICS.filter((t) => carries(p.title, t.words));
      expect(topics.length, p.title).toBe(1);
      expect(p.categories).toBe(topics[0]?.field);
    }
  });

  it("titles start upper case, leave no placeholder and repeat no word back to back", () => {
    for (const p of papers) {
      expect(p.title, p.title).toMatch(/^[A-Z]/);
      expect(p.title).not.toContain("{x}");
      expect(p.title.toLowerCase(), p.title).not.toMatch(/\b(\w+) \1\b/);
    }
  });

  it("most titles differ (a corpus is not the same few phrases)", () => {
    expect(new Set(papers.map((p) => p.title)).size).toBeGreaterThan(papers.length / 3);
  });
});

describe("semantic distances over the demo seed", () => {
  let kit: Testkit;
  let done: () => Promise<void>;
  beforeAll(async () => {
    ({ kit, done } = await startKit({ seed: "demo" }));
  });
  afterAll(async () => done());

  async function topDistances(query: string): Promise<number[]> {
    const page = obj(
      (await call(kit, "POST", "/api/explorer/search", { query, sort: "similarity", limit: 5 })).json,
    );
    return arr(page.results).map((r) => Number(obj(r).distance));
  }

  it("the five nearest papers are not all at one distance, and another query moves them", async () => {
    const graphs = await topDistances("message passing on graphs");
    expect(new Set(graphs).size).toBeGreaterThan(1);
    const folding = await topDistances("protein folding of membrane proteins");
    expect(new Set(folding).size).toBeGreaterThan(1);
    expect(folding).not.toEqual(graphs);
  });
});
