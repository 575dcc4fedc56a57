import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Testkit } from "../src/index.js";
import { arr, call, obj, startKit } from "./helpers.js";

describe("corpus search over the demo seed", () => {
  let kit: Testkit;
  let done: () => Promise<void>;
  beforeAll(async () => {
    ({ kit, done } = await startKit({ seed: "demo" }));
  });
  afterAll(async () => done());

  it("cursor paging visits every paper exactly once, newest first", async () => {
    const seen: number[] = [];
    const keys: string[] = [];
    let cursor: string | null = null;
    let total = 0;
    do {
      const page = obj(
        (
          await call(kit, "POST", "/api/explorer/search", {
            query: "",
            limit: 200,
            ...(cursor ? { cursor } : {}),
          })
        ).json,
      );
      total = Number(page.total);
      for (const r of arr(page.results).map(obj)) {
        seen.push(Number(r.id));
        keys.push(`${String(r.pub_sort) || "0000-00-00"}|${String(r.id).padStart(6, "0")}`);
      }
      cursor = page.next_cursor as string | null;
      expect(page.has_more).toBe(cursor !== null);
    } while (cursor);
    expect(total).toBe(kit.seedSummary.papers);
    expect(seen.length).toBe(total);
    expect(new Set(seen).size).toBe(total);
    expect([...keys].sort().reverse()).toEqual(keys);
  });

  it("keyword search is an AND over the words and narrows by source and date", async () => {
    const page = obj(
      (
        await call(kit, "POST", "/api/explorer/search", {
          query: "graph neural",
          sources: ["arxiv"],
          date_from: "2025-01-01",
          limit: 50,
        })
      ).json,
    );
    const rows = arr(page.results).map(obj);
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(String(r.title).toLowerCase()).toContain("graph");
      expect(r.source_repository).toBe("arxiv");
      expect(String(r.publication_date) >= "2025-01-01").toBe(true);
    }
  });

  it("semantic search ranks by distance, appends unembedded papers unranked, and counts both", async () => {
    const first = obj(
      (
        await call(kit, "POST", "/api/explorer/search", {
          query: "protein folding structure",
          sort: "similarity",
          sources: ["biorxiv"],
          limit: 200,
        })
      ).json,
    );
    expect(first.sort).toBe("similarity");
    expect(Number(first.ranked_count) + Number(first.unranked_count)).toBe(first.total);
    expect(Number(first.unranked_count)).toBeGreaterThan(0);
    const all: Record<string, unknown>[] = arr(first.results).map(obj);
    let cursor = first.next_cursor as string | null;
    while (cursor) {
      const page = obj(
        (
          await call(kit, "POST", "/api/explorer/search", {
            query: "protein folding structure",
            sort: "similarity",
            sources: ["biorxiv"],
            limit: 200,
            cursor,
          })
        ).json,
      );
      all.push(...arr(page.results).map(obj));
      cursor = page.next_cursor as string | null;
    }
    const ranked = all.filter((r) => r.distance !== null);
    expect(ranked.length).toBe(first.ranked_count);
    expect(all.slice(ranked.length).every((r) => r.distance === null)).toBe(true);
    const distances = ranked.map((r) => Number(r.distance));
    expect([...distances].sort((a, b) => a - b)).toEqual(distances);
    expect(String(obj(all[0]).title).toLowerCase()).toContain("protein folding");
  });

  it("declines semantic search when switched off, saying so and serving newest", async () => {
    kit.setSemanticAvailable(false);
    const page = obj(
      (await call(kit, "POST", "/api/explorer/search", { query: "protein", sort: "similarity", limit: 5 }))
        .json,
    );
    kit.setSemanticAvailable(true);
    expect(page.sort).toBe("newest");
    expect(typeof page.similarity_unavailable).toBe("string");
    expect(page).not.toHaveProperty("ranked_count");
  });

  it("the coverage audit reports totals beyond its 25-row lists, a lower-bound flag, and which text it measured against", async () => {
    const graph = obj((await call(kit, "GET", "/api/routines/3/coverage")).json);
    expect(graph.intent_source).toBe("stated");
    expect(arr(graph.off_target)).toHaveLength(25);
    expect(Number(graph.off_target_total)).toBeGreaterThan(25);
    expect(Number(graph.missed_in_corpus_total)).toBeGreaterThan(25);
    const turbulence = obj((await call(kit, "GET", "/api/routines/1/coverage")).json);
    expect(turbulence.missed_in_corpus_total_is_lower_bound).toBe(true);
    const retraction = obj((await call(kit, "GET", "/api/routines/2/coverage")).json);
    expect(retraction.intent_source).toBe("keywords");
    expect(retraction.intent).toBe("retraction");
    kit.setSemanticAvailable(false);
    const off = obj((await call(kit, "GET", "/api/routines/3/coverage")).json);
    kit.setSemanticAvailable(true);
    expect(off.model).toBeNull();
    expect(String(off.reason)).toContain("Nothing is embedded yet");
  });

  it("records bioRxiv/medRxiv default starts and answers in part on the preprint watch", async () => {
    const runs = arr((await call(kit, "GET", "/api/executions?limit=500")).json)
      .map(obj)
      .filter((e) => e.routine_id === 4);
    expect(runs.length).toBeGreaterThan(0);
    const params = JSON.parse(String(runs[0]?.parameters)) as {
      default_starts: Record<string, { days: number; before: string; sentence: string }>;
    };
    expect(params.default_starts.biorxiv?.days).toBe(3);
    expect(params.default_starts.medrxiv?.before).toBe("run");
    const inPart = runs
      .flatMap((e) => arr(obj(e.coverage).sources).map(obj))
      .filter((s) => s.in_part === true);
    expect(new Set(inPart.map((s) => s.source))).toEqual(new Set(["biorxiv", "medrxiv"]));
    expect(inPart.every((s) => s.category === "answered")).toBe(true);
  });

  it("a malformed cursor is a 400 like resmon's", async () => {
    const bad = await call(kit, "POST", "/api/explorer/search", { query: "", cursor: "not-a-cursor" });
    expect(bad.status).toBe(400);
    expect(obj(bad.json).detail).toBe("Malformed cursor: 'not-a-cursor'");
  });
});
