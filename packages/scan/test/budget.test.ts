import type { ScanEnvelope } from "@resmon/mcp-contract";
import { Tiktoken } from "js-tiktoken/lite";
import cl100kBase from "js-tiktoken/ranks/cl100k_base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { normalizeStart } from "../src/args.js";
import { envelopeOf } from "../src/envelope.js";
import { SCREEN_ABSTRACT_CHARS } from "../src/payloads.js";
import type { PaperRecord } from "../src/records.js";
import { newState } from "../src/scan-start.js";
import type { RecordBook, ScanState } from "../src/state.js";
import { type Rig, rig } from "./helpers/backend.js";
import { driveToEnd } from "./helpers/model.js";
import { startArgs } from "./helpers/plan.js";

const encoder = new Tiktoken(cl100kBase);
const tokens = (value: unknown) => {
  const n = encoder.encode(JSON.stringify(value)).length;
  if (process.env.SCAN_BUDGET_REPORT) console.log(`tokens: ${n}`);
  return n;
};

/** Worst-case records: long titles, twelve authors, 3000-character abstracts, long DOIs. */
function heavy(id: number): PaperRecord {
  const words = "graph attention message passing sparse spectral convolution benchmark".split(" ");
  return {
    id,
    title: `A comprehensive study of ${words.join(" ")} number ${id} with extended evaluation across many settings`,
    authors: Array.from({ length: 12 }, (_, i) => `Firstname${i} Lastname${i}`).join(", "),
    publication_date: "2024-03-01",
    doi: `10.1234/some.long.journal.identifier.${id}.2024.v1`,
    url: `https://example.org/${id}`,
    source_repository: "semantic_scholar",
    external_id: `corpusid:${id}`,
    abstract: Array.from({ length: 60 }, (_, i) => words[i % words.length])
      .join(" ")
      .repeat(6),
  };
}

function stateWith(ids: number[], over: Partial<ScanState>): ScanState {
  return {
    ...newState("0b5f8a4e-3c8d-4f6a-9b1e-2d7c5a9e8f10", normalizeStart(startArgs()), new Date(0)),
    tasks: [],
    retrieving: null,
    candidates: ids.map((doc_id) => ({
      doc_id,
      merged_ids: [],
      query_ids: ["Q1"],
      origin: "retrieval",
      out_of_window: false,
      batch: 0,
    })),
    batches: [{ index: 0, round: 0, doc_ids: ids, accepted_hash: null, scores: null }],
    ...over,
  };
}

describe("token budgets (cl100k_base)", () => {
  const ids = Array.from({ length: 25 }, (_, i) => i + 1);
  const records: RecordBook = Object.fromEntries(ids.map((id) => [String(id), heavy(id)]));

  it("a 25-item screening batch with 3000-character abstracts stays under 5000 tokens, and says abstracts are cut", () => {
    const env = envelopeOf(stateWith(ids, {}), records);
    expect(env.next_action).toBe("screen_candidates");
    const items = (env.payload.batch as { items: { abstract: string; authors: string }[] }).items;
    expect(items).toHaveLength(25);
    for (const it of items) {
      expect(it.abstract.endsWith("…")).toBe(true);
      expect(it.abstract.length).toBeLessThanOrEqual(SCREEN_ABSTRACT_CHARS + 1);
      expect(it.authors.endsWith("et al.")).toBe(true);
    }
    expect(String(env.payload.note)).toContain("cut");
    expect(tokens(env)).toBeLessThan(5000);
  });

  it("a shortlist page of 10 stays under 3000 tokens", () => {
    const page = ids.slice(0, 10);
    const state = stateWith(ids, {
      batches: [
        {
          index: 0,
          round: 0,
          doc_ids: ids,
          accepted_hash: "h",
          scores: ids.map((doc_id) => ({
            doc_id,
            score: 3,
            criteria_hit: ["C1", "C2", "C3"],
            reason: "x ".repeat(400),
          })),
        },
      ],
      expansion: { seeds: [], added: [], empty: [], failed: [] },
      gap: { needed: false, reasons: [], queries: null, accepted_hash: null },
      shortlist: { in_window: ids, outside: [] },
      pages: [{ index: 0, doc_ids: page, accepted_hash: null, entries: null }],
    });
    const env = envelopeOf(state, records);
    expect(env.next_action).toBe("rank_shortlist");
    expect(tokens(env)).toBeLessThan(3000);
  });

  it("page 0 of the largest shortlist (top 25: 60 to rank) with its overview and 200 left out stays under 7000 tokens; the other pages carry neither", () => {
    const all = Array.from({ length: 260 }, (_, i) => i + 1);
    const book: RecordBook = Object.fromEntries(all.map((id) => [String(id), heavy(id)]));
    const ranked = all.slice(0, 60);
    const pages = Array.from({ length: 6 }, (_, i) => ({
      index: i,
      doc_ids: ranked.slice(i * 10, i * 10 + 10),
      accepted_hash: null,
      entries: null,
    }));
    const state = stateWith(all, {
      inputs: { ...normalizeStart(startArgs({ top: 25 })) },
      batches: [
        {
          index: 0,
          round: 0,
          doc_ids: all,
          accepted_hash: "h",
          scores: all.map((doc_id) => ({
            doc_id,
            score: 3,
            criteria_hit: ["C1", "C2", "C3"],
            reason: "x ".repeat(400),
          })),
        },
      ],
      expansion: { seeds: [], added: [], empty: [], failed: [] },
      gap: { needed: false, reasons: [], queries: null, accepted_hash: null },
      shortlist: { in_window: ranked, outside: [], left_out: all.slice(60), limit: 60 },
      pages,
    });
    const first = envelopeOf(state, book);
    const payload = first.payload as {
      overview: { lines: string[] };
      left_out: { count: number; lines: string[] };
    };
    expect(payload.overview.lines).toHaveLength(50);
    expect(payload.left_out.count).toBe(200);
    expect(payload.left_out.lines).toHaveLength(25);
    expect(tokens(first)).toBeLessThan(7000);
    state.pages[0] = { ...(state.pages[0] as (typeof state.pages)[0]), accepted_hash: "h", entries: [] };
    const later = envelopeOf(state, book);
    expect((later.payload.page as { index: number }).index).toBe(1);
    expect(later.payload.overview).toBeUndefined();
    expect(tokens(later)).toBeLessThan(3000);
  });

  describe("a finished scan's result", () => {
    let r: Rig;
    let done: ScanEnvelope;
    beforeAll(async () => {
      r = await rig();
      const engine = r.engine();
      const args = startArgs({ top: 25, foundational: 5, per_query: 20 });
      const seen = await driveToEnd(engine, await engine.start(args));
      done = (await engine.result({ scan_id: args.scan_id })) as ScanEnvelope;
      expect(seen.at(-1)?.next_action).toBe("complete");
    });
    afterAll(async () => {
      await r.close();
    });
    it("stays under 4000 tokens with 25 packets, evidence.md left out unless asked", () => {
      expect((done.payload.rows as unknown[]).length).toBeGreaterThan(10);
      expect(done.payload.markdown).toBeUndefined();
      expect(tokens(done)).toBeLessThan(4000);
    });
  });
});
