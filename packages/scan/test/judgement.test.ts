import { readFileSync } from "node:fs";
import type { ScanEnvelope, ScreenScore, ToolError } from "@resmon/mcp-contract";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ScanEngine } from "../src/index.js";
import { type Rig, rig } from "./helpers/backend.js";
import { startArgs } from "./helpers/plan.js";

type Item = { doc_id: number };
type Scorer = (items: Item[]) => ScreenScore[];

let r: Rig;
beforeEach(async () => {
  r = await rig();
});
afterEach(async () => {
  await r.close();
});

/** Two of every three papers scored 3, each on one criterion by its id. */
const manyThrees: Scorer = (items) =>
  items.map((it) => ({
    doc_id: it.doc_id,
    score: it.doc_id % 3 === 0 ? 1 : 3,
    criteria_hit: [`C${(Math.floor(it.doc_id / 3) % 3) + 1}`],
  }));
const allZero: Scorer = (items) => items.map((it) => ({ doc_id: it.doc_id, score: 0, criteria_hit: [] }));

async function refusal(p: Promise<unknown>): Promise<ToolError> {
  try {
    await p;
  } catch (error) {
    return error as ToolError;
  }
  throw new Error("expected a refusal");
}

/** Rank every page in order and verify; returns the final envelope. */
async function driveRanks(engine: ScanEngine, env: ScanEnvelope): Promise<ScanEnvelope> {
  let ranked = 0;
  for (let i = 0; i < 50 && env.next_action !== "complete"; i++) {
    if (env.next_action === "rank_shortlist") {
      const items = (env.payload.page as { items: Item[] }).items;
      env = await engine.continue({
        scan_id: env.scan_id,
        ranked_entries: items.map((it, k) => ({ doc_id: it.doc_id, rank: ranked + k + 1 })),
      });
      ranked += items.length;
    } else if (env.next_action === "verify_ranked") env = await engine.verify({ scan_id: env.scan_id });
    else env = await engine.continue({ scan_id: env.scan_id });
  }
  return env;
}

/** Follow next_action with `score` until `until` says stop (or rank_shortlist); returns the envelope there and every one seen. */
async function screenUntil(
  engine: ScanEngine,
  env: ScanEnvelope,
  score: Scorer,
  until: (e: ScanEnvelope) => boolean = (e) => e.next_action === "rank_shortlist",
): Promise<{ env: ScanEnvelope; seen: ScanEnvelope[]; scores: ScreenScore[] }> {
  const seen = [env];
  const scores: ScreenScore[] = [];
  for (let i = 0; i < 100 && !until(env) && env.next_action !== "complete"; i++) {
    const scan_id = env.scan_id;
    if (env.next_action === "screen_candidates") {
      const sent = score((env.payload.batch as { items: Item[] }).items);
      scores.push(...sent);
      env = await engine.continue({ scan_id, screen_scores: sent });
    } else if (env.next_action === "write_gap_queries")
      env = await engine.continue({ scan_id, gap_queries: [] });
    else env = await engine.continue({ scan_id });
    seen.push(env);
  }
  return { env, seen, scores };
}

describe("the model ranks what it has seen, and no top-scored paper is dropped in silence", () => {
  it("ranks at most 2 × top + 10; the first page shows the rest of the shortlist and what the bound left out; a left-out paper can be pulled in", async () => {
    const engine = r.engine();
    const args = startArgs({ profile: "standard", per_query: undefined, top: 5 });
    const { env, scores } = await screenUntil(engine, await engine.start(args), manyThrees);
    expect(env.next_action).toBe("rank_shortlist");
    const threes = scores.filter((s) => s.score === 3).length;
    expect(threes).toBeGreaterThan(20);
    expect(env.progress.shortlisted).toBe(20);
    const payload = env.payload as {
      page: { index: number; items: Item[] };
      overview: { lines: string[] };
      left_out: { count: number; doc_ids: number[]; lines: string[] };
    };
    expect(payload.page.index).toBe(0);
    // The rest of the shortlist, one line a paper, before any rank is given.
    expect(payload.overview.lines.length).toBe(20 - payload.page.items.length);
    // Every score-3 paper the bound left out is said, by id, with a line to judge it by.
    expect(payload.left_out.count).toBe(threes - 20);
    expect(payload.left_out.doc_ids.length).toBe(threes - 20);
    expect(payload.left_out.lines.length).toBe(Math.min(5, threes - 20));
    expect(String(env.payload.note)).toContain("left_out");
    // Pull one in on the first page: it joins the ranking.
    const pulled = payload.left_out.doc_ids[0] as number;
    const entries = [...payload.page.items.map((it) => it.doc_id), pulled].map((doc_id, i) => ({
      doc_id,
      rank: i + 1,
    }));
    const next = await engine.continue({ scan_id: args.scan_id, ranked_entries: entries });
    expect(next.progress.shortlisted).toBe(21);
    expect(next.progress.ranked).toBe(entries.length);
    // A paper never shown (a score-1 one) cannot be pulled in.
    const low = scores.find((s) => s.score === 1)?.doc_id as number;
    const page1 = (next.payload.page as { items: Item[] }).items;
    const bad = await refusal(
      engine.continue({
        scan_id: args.scan_id,
        ranked_entries: [...page1, { doc_id: low }].map((it, i) => ({ doc_id: it.doc_id, rank: 12 + i })),
      }),
    );
    expect(bad.detail.unknown_ids).toEqual([low]);
  });

  it("top 10 ranks at most 30, and the ranking keeps each criterion the model marked", async () => {
    const engine = r.engine();
    const args = startArgs({ profile: "standard", per_query: undefined, top: 10 });
    const { env } = await screenUntil(engine, await engine.start(args), manyThrees);
    expect(env.progress.shortlisted).toBe(30);
    const state = JSON.parse(readFileSync(`${r.dataDir}/${args.scan_id}/scan.json`, "utf8"));
    const byId = new Map<number, ScreenScore>();
    for (const b of state.batches) for (const s of b.scores ?? []) byId.set(s.doc_id, s);
    const perCriterion = new Map<string, number>();
    for (const id of [...state.shortlist.in_window, ...state.shortlist.outside])
      for (const c of byId.get(id)?.criteria_hit ?? []) perCriterion.set(c, (perCriterion.get(c) ?? 0) + 1);
    for (const c of ["C1", "C2", "C3"]) expect(perCriterion.get(c) ?? 0).toBeGreaterThanOrEqual(8);
  });
});

describe("screening economy", () => {
  it("scores that show nothing: stopping is offered, and taking it finishes the scan saying what was not screened", async () => {
    const engine = r.engine();
    const args = startArgs({ profile: "standard", per_query: undefined });
    const offered = (e: ScanEnvelope) =>
      ((e.payload.options as { option: string }[] | undefined) ?? []).some(
        (o) => o.option === "stop_screening",
      );
    // The first batch holds papers scored 3 (so more pages follow), then nothing more is found.
    let batches = 0;
    const firstThenZero: Scorer = (items) => (batches++ === 0 ? manyThrees(items) : allZero(items));
    const { env, seen, scores } = await screenUntil(engine, await engine.start(args), firstThenZero, offered);
    expect(offered(env)).toBe(true);
    // Offered after two batches in a row with nothing scored 2 or more, not before.
    expect(batches).toBe(3);
    expect(seen.filter(offered).length).toBe(1);
    const option = (
      env.payload.options as { option: string; tool: string; arguments: Record<string, unknown> }[]
    )[0];
    expect(option).toMatchObject({ option: "stop_screening", tool: "scan_continue" });
    let done = await engine.continue(option?.arguments as { scan_id: string; stop_screening: true });
    done = (await driveRanks(engine, done)) ?? done;
    expect(done.next_action).toBe("complete");
    const evidence = JSON.parse(readFileSync(String((done.payload.files as { json: string }).json), "utf8"));
    expect(evidence.screening.stopped).toContain("Screening was stopped");
    expect(evidence.screening.unscreened).toBeGreaterThan(0);
    expect(evidence.screening.screened).toBe(scores.length);
    const md = readFileSync(String((done.payload.files as { md: string }).md), "utf8");
    expect(md).toContain("## Screening");
    expect(md).toContain(`Not screened: ${evidence.screening.unscreened}`);
  });

  it("stop_screening when it is not on offer is refused, naming the field", async () => {
    const engine = r.engine();
    const args = startArgs({ profile: "standard", per_query: undefined });
    const { env } = await screenUntil(
      engine,
      await engine.start(args),
      allZero,
      (e) => e.next_action === "screen_candidates",
    );
    const no = await refusal(engine.continue({ scan_id: env.scan_id, stop_screening: true }));
    expect(no.detail).toMatchObject({ field: "stop_screening", reason: "not_offered" });
  });
});

describe("a slip can be corrected before the shortlist", () => {
  it("re-scoring a screened paper with a reason is recorded in evidence.json; without a reason, or after the shortlist, it is refused", async () => {
    const engine = r.engine();
    const args = startArgs();
    const first = await screenUntil(
      engine,
      await engine.start(args),
      manyThrees,
      (e) => e.next_action === "screen_candidates",
    );
    const batch0 = (first.env.payload.batch as { items: Item[] }).items;
    const second = await engine.continue({ scan_id: args.scan_id, screen_scores: manyThrees(batch0) });
    const slip = manyThrees(batch0).find((s) => s.score === 3) as ScreenScore;
    const bare = await refusal(
      engine.continue({ scan_id: args.scan_id, screen_scores: [{ ...slip, score: 0, criteria_hit: [] }] }),
    );
    expect(bare.detail.reason).toBe("correction_needs_reason");
    const fixed = await engine.continue({
      scan_id: args.scan_id,
      screen_scores: [
        { doc_id: slip.doc_id, score: 0, criteria_hit: [], reason: "off-topic: a survey of chemistry" },
      ],
    });
    expect(fixed.payload.corrected).toEqual([{ doc_id: slip.doc_id, from: 3, to: 0 }]);
    expect(fixed.next_action).toBe(second.next_action);
    const { env } = await screenUntil(engine, fixed, manyThrees);
    expect(env.next_action).toBe("rank_shortlist");
    const state = JSON.parse(readFileSync(`${r.dataDir}/${args.scan_id}/scan.json`, "utf8"));
    expect([...state.shortlist.in_window, ...state.shortlist.left_out]).not.toContain(slip.doc_id);
    const late = await refusal(
      engine.continue({ scan_id: args.scan_id, screen_scores: [{ ...slip, reason: "back to 3 after all" }] }),
    );
    expect(late.detail).toMatchObject({ reason: "wrong_phase", next_action: "rank_shortlist" });
    expect(late.message).toContain("Screening is closed");
    expect(late.message).not.toContain("already accepted");
    expect(state.corrections[0]).toMatchObject({ doc_id: slip.doc_id, from: { score: 3 }, to: { score: 0 } });
  });
});
