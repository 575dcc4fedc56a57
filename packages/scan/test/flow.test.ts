import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ScanEnvelope, ToolError } from "@resmon/mcp-contract";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { screenBudgetOf } from "../src/feedback.js";
import { type Rig, rig } from "./helpers/backend.js";
import { driveToEnd, GAP_QUERIES, scoreBatch } from "./helpers/model.js";
import { expectMode } from "./helpers/modes.js";
import { startArgs } from "./helpers/plan.js";

let r: Rig;
beforeEach(async () => {
  r = await rig();
});
afterEach(async () => {
  await r.close();
});

describe("a whole scan, following next_action alone", () => {
  for (const retrieval of ["sweep", "corpus", "both"] as const) {
    it(`runs to complete with retrieval ${retrieval}`, async () => {
      const engine = r.engine();
      const args = startArgs({ retrieval });
      const first = await engine.start(args);
      const seen = await driveToEnd(engine, first);
      const last = seen.at(-1);
      expect(last?.next_action).toBe("complete");
      expect(last?.phase).toBe("complete");
      const phases = seen.map((e) => e.phase);
      expect(phases).toContain("screen");
      expect(phases).toContain("rank");
      const files = last?.payload.files as { json: string; md: string; bib: string };
      for (const f of [files.json, files.md, files.bib]) {
        expect(existsSync(f)).toBe(true);
        expectMode(f, 0o600);
      }
      const evidence = JSON.parse(readFileSync(files.json, "utf8"));
      expect(evidence.basis).toBe("resmon_record");
      expect(evidence.packets.length).toBeGreaterThan(0);
      expect(evidence.packets.length).toBeLessThanOrEqual(10);
      expect(readFileSync(files.bib, "utf8")).toContain("@");
      expect(r.kit.strictnessRefusals()).toBe(0);
      // One admitted sweep per query (a 429 from admission is retried, not counted).
      const sweeps = r.kit.requests.filter((q) => q.route === "/api/search/sweep");
      expect(sweeps.filter((q) => q.status === 200).length).toBe(retrieval === "corpus" ? 0 : 6);
      expect(sweeps.every((q) => q.status === 200 || q.status === 429)).toBe(true);
      for (const s of sweeps) expect(s.body).toMatchObject({ ai_enabled: false, max_results: 8 });
      const result = await engine.result({ scan_id: args.scan_id });
      expect(result.next_action).toBe("complete");
      expect(result.payload.markdown).toBeUndefined();
      const withMd = await engine.result({ scan_id: args.scan_id, include_markdown: true });
      expect(String(withMd.payload.markdown)).toContain("Verification basis");
    });
  }

  it("an empty 'more like this' answer with a reason is an empty expansion, not a failure; the corpus sort served is recorded", async () => {
    r.kit.setEmbeddingState("no_model");
    const engine = r.engine();
    const args = startArgs({ retrieval: "corpus" });
    const seen = await driveToEnd(engine, await engine.start(args));
    expect(seen.at(-1)?.next_action).toBe("complete");
    const state = JSON.parse(readFileSync(join(r.dataDir, args.scan_id, "scan.json"), "utf8"));
    expect(state.expansion.added).toEqual([]);
    expect(state.expansion.empty.length).toBe(state.expansion.seeds.length);
    expect(state.expansion.empty[0].reason).toContain("Nothing is embedded");
    // resmon declined similarity ranking without a model: what it served is recorded, with its sentence.
    for (const t of state.tasks) {
      expect(t.sort_served).toBe("newest");
      expect(typeof t.similarity_unavailable).toBe("string");
    }
  });

  it("a gap round when the profile calls for one: its sweeps, its batches, then the shortlist; the accepted queries are final", async () => {
    const engine = r.engine();
    const args = startArgs({ profile: "standard", per_query: 8 });
    let env = await engine.start(args);
    while (env.next_action !== "write_gap_queries") {
      expect(["await_retrieval", "screen_candidates"]).toContain(env.next_action);
      env =
        env.next_action === "screen_candidates"
          ? await engine.continue({
              scan_id: args.scan_id,
              screen_scores: scoreBatch((env.payload.batch as { items: { doc_id: number }[] }).items),
            })
          : await engine.continue({ scan_id: args.scan_id });
    }
    expect(env.phase).toBe("gap");
    expect((env.payload.reasons as string[]).some((x) => x.includes("under 20"))).toBe(true);
    const before = r.sweepPosts();
    const gap = await engine.continue({ scan_id: args.scan_id, gap_queries: GAP_QUERIES });
    expect(r.sweepPosts()).toBe(before + 1);
    const replay = await engine.continue({ scan_id: args.scan_id, gap_queries: GAP_QUERIES });
    expect(replay.replayed).toBe(true);
    const changed = await engine
      .continue({ scan_id: args.scan_id, gap_queries: [] })
      .catch((e: unknown) => e);
    expect((changed as ToolError).detail.conflict).toBe("already_accepted");
    const seen = await driveToEnd(engine, gap);
    expect(seen.some((e) => e.phase === "gap" && e.next_action === "screen_candidates")).toBe(true);
    expect(seen.at(-1)?.next_action).toBe("complete");
    const state = JSON.parse(readFileSync(join(r.dataDir, args.scan_id, "scan.json"), "utf8"));
    expect(state.candidates.some((c: { origin: string }) => c.origin === "gap")).toBe(true);
    expect(
      state.tasks
        .filter((t: { round: number }) => t.round === 1)
        .map((t: { query_id: string; text: string }) => [t.query_id, t.text]),
    ).toEqual([["G1", "equivariant"]]);
  });

  it("an empty gap_queries list skips the gap round: no sweep; the batch held for it goes back to screening, then the shortlist", async () => {
    const engine = r.engine();
    const args = startArgs({ profile: "standard", per_query: 8 });
    let env = await engine.start(args);
    while (env.next_action !== "write_gap_queries") {
      env =
        env.next_action === "screen_candidates"
          ? await engine.continue({
              scan_id: args.scan_id,
              screen_scores: scoreBatch((env.payload.batch as { items: { doc_id: number }[] }).items),
            })
          : await engine.continue({ scan_id: args.scan_id });
    }
    const before = r.sweepPosts();
    const screened = (e: ScanEnvelope) => e.progress.screened as number;
    const asked = screened(env);
    let next = await engine.continue({ scan_id: args.scan_id, gap_queries: [] });
    // What the gap round would have taken of the screening budget is screened instead (feedback), within it.
    for (let i = 0; i < 20 && next.next_action === "screen_candidates"; i++) {
      const batch = next.payload.batch as { kind: string; items: { doc_id: number }[] };
      expect(batch.kind).not.toBe("gap");
      next = await engine.continue({ scan_id: args.scan_id, screen_scores: scoreBatch(batch.items) });
    }
    expect(next.phase).toBe("rank");
    expect(next.next_action).toBe("rank_shortlist");
    expect(r.sweepPosts()).toBe(before);
    expect(screened(next)).toBeGreaterThan(asked);
    expect(screened(next)).toBeLessThanOrEqual(screenBudgetOf("standard", 10));
  });

  it("with no wait budget every call still advances; verification goes on across scan_verify calls, each paper checked once", async () => {
    // A slot for every sweep: resmon's Retry-After (5 s here, honoured) is not what this test is about.
    r.kit.setAdmission({ maxConcurrent: 10 });
    const engine = r.engine({ waitMs: 0 });
    const args = startArgs({ per_query: 4 });
    const seen = await driveToEnd(engine, await engine.start(args), 400);
    expect(seen.at(-1)?.next_action).toBe("complete");
    const verifying = seen.filter((e) => e.next_action === "verify_ranked");
    expect(verifying.length).toBeGreaterThan(2);
    expect(verifying.some((e) => String(e.payload.note).includes("under way"))).toBe(true);
    const ranked = seen.at(-1)?.progress.ranked as number;
    const lifecycle = r.kit.requests.filter((q) => q.route === "/api/documents/{doc_id}/lifecycle");
    expect(lifecycle.length).toBe(ranked);
    expect(new Set(lifecycle.map((q) => q.path)).size).toBe(ranked);
  });
});
