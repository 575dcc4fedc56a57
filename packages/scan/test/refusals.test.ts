import { randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ToolError } from "@resmon/mcp-contract";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ScanEngine } from "../src/index.js";
import { asTheServerCalls, type Rig, rig } from "./helpers/backend.js";
import { driveToEnd, rankPage, scoreBatch } from "./helpers/model.js";
import { GRAPH_PLAN, startArgs } from "./helpers/plan.js";

let r: Rig;
beforeEach(async () => {
  r = await rig();
});
afterEach(async () => {
  await r.close();
});

async function refusal(p: Promise<unknown>): Promise<ToolError> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ToolError);
  return error as ToolError;
}

type Items = { items: { doc_id: number; doi?: string | null; title?: string | null }[] };

async function toScreening(engine: ScanEngine) {
  const args = startArgs();
  let env = await engine.start(args);
  while (env.next_action === "await_retrieval") env = await engine.continue({ scan_id: args.scan_id });
  expect(env.next_action).toBe("screen_candidates");
  return { args, env };
}

describe("refusals", () => {
  it("a non-canonical scan_id: invalid_argument, nothing written, nothing sent", async () => {
    const engine = asTheServerCalls(r.engine());
    r.kit.clearRequests();
    for (const bad of [
      "not-a-uuid",
      "6F9619FF-8B86-4011-B42D-00C04FC964FF",
      "6f9619ff-8b86-1011-b42d-00c04fc964ff",
    ]) {
      const e = await refusal(engine.start(startArgs({ scan_id: bad })));
      expect(e.code).toBe("invalid_argument");
      expect(e.detail.field).toBe("scan_id");
      // Capitals are the one fix a caller can make at once: said in words, not as a pattern.
      if (bad === bad.toUpperCase()) expect(e.message).toContain("use lowercase");
      else expect(e.message).not.toContain("use lowercase");
    }
    expect(existsSync(r.dataDir)).toBe(false);
    expect(r.kit.requests.length).toBe(0);
  });

  it("the same id with other inputs: scan_id_conflict naming the fields, never their values", async () => {
    const engine = r.engine();
    const args = startArgs();
    await engine.start(args);
    const posts = r.sweepPosts();
    const e = await refusal(engine.start({ ...args, brief: "a secret other brief", top: 7 }));
    expect(e.code).toBe("conflict");
    expect(e.detail).toMatchObject({ conflict: "scan_id_conflict", differs: ["brief", "top"] });
    expect(JSON.stringify(e.detail)).not.toContain("secret");
    expect(e.message).not.toContain("secret");
    expect(r.sweepPosts()).toBe(posts);
  });

  it("the same inputs under a new scan_id while a scan with them is open: that scan answers, nothing is sent", async () => {
    const engine = r.engine({ waitMs: 100 });
    const args = startArgs({ allow_duplicate: undefined });
    await engine.start(args);
    const sweeps = () => r.kit.requests.filter((q) => q.route === "/api/search/sweep").length;
    const sent = sweeps();
    const retryId = randomUUID();
    const again = await engine.start({ ...args, scan_id: retryId });
    expect(again.scan_id).toBe(args.scan_id);
    expect(again.payload.duplicate_of).toMatchObject({ scan_id_sent: retryId, open_scan_id: args.scan_id });
    expect(String((again.payload.duplicate_of as { note: string }).note)).toContain("allow_duplicate: true");
    expect(sweeps()).toBe(sent);
    expect(existsSync(join(r.dataDir, retryId))).toBe(false);
    // Asked for explicitly, a second scan with the same inputs starts.
    const second = await engine.start({ ...args, scan_id: randomUUID(), allow_duplicate: true });
    expect(second.payload.duplicate_of).toBeUndefined();
    expect(sweeps()).toBeGreaterThan(sent);
  });

  it("two starts of the same inputs at once under two new ids: one scan, the other answers duplicate_of (issue 41 point 2)", async () => {
    const engine = r.engine({ waitMs: 100 });
    const args = startArgs({ allow_duplicate: undefined });
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    const answers = await Promise.all(ids.map((id) => engine.start({ ...args, scan_id: id })));
    const started = answers.filter((a) => a.payload.duplicate_of === undefined);
    expect(started).toHaveLength(1);
    const first = started[0]?.scan_id as string;
    for (const a of answers.filter((x) => x.payload.duplicate_of !== undefined)) {
      expect(a.scan_id).toBe(first);
      expect(a.payload.duplicate_of).toMatchObject({ open_scan_id: first });
    }
    // Only the scan that started has a directory.
    expect(readdirSync(r.dataDir).filter((d) => (ids as string[]).includes(d))).toEqual([first]);
    // Once its retrieval is done, resmon has accepted each planned query's sweep exactly once: a
    // second scan would have sent the same bodies again. Accepted sweeps are counted, not requests:
    // how many 429s (asked again) a busy machine's timing draws is not the point.
    let step = started[0];
    for (let i = 0; step?.next_action === "await_retrieval" && i < 100; i++) {
      step = await r.engine({ waitMs: 2000 }).continue({ scan_id: first });
    }
    expect(step?.next_action).not.toBe("await_retrieval");
    const accepted = r.kit.requests
      .filter((q) => q.method === "POST" && q.route === "/api/search/sweep" && q.status === 200)
      .map((q) => JSON.stringify(q.body));
    expect(accepted).toHaveLength(GRAPH_PLAN.queries.length);
    expect(new Set(accepted).size).toBe(accepted.length);
  });

  it("the same inputs under a new scan_id after the scan finished: its result answers (duplicate_of), nothing is sent; allow_duplicate starts a new one", async () => {
    const engine = r.engine();
    const args = startArgs({ allow_duplicate: undefined });
    expect((await driveToEnd(engine, await engine.start(args))).at(-1)?.next_action).toBe("complete");
    const requests = r.kit.requests.length;
    const fresh = randomUUID();
    const dup = await engine.start({ ...args, scan_id: fresh });
    expect(dup.scan_id).toBe(args.scan_id);
    expect(dup.next_action).toBe("complete");
    expect(dup.payload.duplicate_of).toMatchObject({ scan_id_sent: fresh, finished_scan_id: args.scan_id });
    expect(r.kit.requests.length).toBe(requests);
    expect(existsSync(join(r.dataDir, fresh))).toBe(false);
    const posts = r.sweepPosts();
    const next = await engine.start({ ...args, scan_id: randomUUID(), allow_duplicate: true });
    expect(next.payload.duplicate_of).toBeUndefined();
    expect(r.sweepPosts()).toBeGreaterThan(posts);
  });

  it("omitting an argument equal to its default is not a change", async () => {
    const engine = r.engine();
    const args = startArgs({ profile: "standard", per_query: undefined });
    const first = await engine.start(args);
    const posts = r.sweepPosts();
    const again = await engine.start({
      ...args,
      retrieval: "sweep",
      top: 10,
      foundational: 2,
      per_query: 40,
      force_gap_round: false,
    });
    expect(again.scan_id).toBe(first.scan_id);
    expect(r.sweepPosts()).toBe(posts);
  });

  it("an unknown scan is not_found", async () => {
    const engine = r.engine();
    const id = startArgs().scan_id;
    for (const call of [
      () => engine.continue({ scan_id: id }),
      () => engine.verify({ scan_id: id }),
      () => engine.result({ scan_id: id }),
    ]) {
      expect((await refusal(call())).code).toBe("not_found");
    }
  });

  it("two artifacts, or the wrong one for the phase: wrong_phase with next_action", async () => {
    const engine = r.engine();
    const { args, env } = await toScreening(engine);
    const items = (env.payload.batch as Items).items;
    // scan_result shows the same batch, read from disk without the lock.
    expect((await engine.result({ scan_id: args.scan_id })).payload).toEqual(env.payload);
    const two = await refusal(
      engine.continue({ scan_id: args.scan_id, screen_scores: scoreBatch(items), gap_queries: [] }),
    );
    expect(two.detail).toMatchObject({ reason: "wrong_phase", next_action: "screen_candidates" });
    const wrong = await refusal(
      engine.continue({ scan_id: args.scan_id, ranked_entries: rankPage(items, 1) }),
    );
    expect(wrong.code).toBe("invalid_argument");
    expect(wrong.detail).toMatchObject({ reason: "wrong_phase", next_action: "screen_candidates" });
    const gap = await refusal(engine.continue({ scan_id: args.scan_id, gap_queries: [] }));
    expect(gap.detail.reason).toBe("wrong_phase");
  });

  it("a batch missing, repeating or inventing ids, or naming unknown criteria: bad_artifact", async () => {
    const engine = r.engine();
    const { args, env } = await toScreening(engine);
    const scores = scoreBatch((env.payload.batch as Items).items);
    const [first, second, ...rest] = scores;
    if (!first || !second) throw new Error("batch too small");
    const cases = [
      { sent: [second, ...rest], key: "missing_ids", value: [first.doc_id] },
      { sent: [first, first, second, ...rest], key: "duplicate_ids", value: [first.doc_id] },
      { sent: [...scores, { ...first, doc_id: 987654 }], key: "unknown_ids", value: [987654] },
      { sent: [{ ...first, criteria_hit: ["C9"] }, second, ...rest], key: "bad_criteria", value: ["C9"] },
    ];
    for (const c of cases) {
      const e = await refusal(engine.continue({ scan_id: args.scan_id, screen_scores: c.sent }));
      expect(e.code).toBe("invalid_argument");
      expect(e.detail.reason).toBe("bad_artifact");
      expect(e.detail[c.key]).toEqual(c.value);
      // Every refusal says the next step.
      expect(e.detail.next_action).toBe("screen_candidates");
    }
    // Nothing was accepted: the same batch is still asked for.
    const poll = await engine.continue({ scan_id: args.scan_id });
    expect((poll.payload.batch as { index: number }).index).toBe(0);
  });

  it("an accepted batch sent again: unchanged is replayed, changed is already_accepted", async () => {
    const engine = r.engine();
    const { args, env } = await toScreening(engine);
    const scores = scoreBatch((env.payload.batch as Items).items);
    const next = await engine.continue({ scan_id: args.scan_id, screen_scores: scores });
    const replay = await engine.continue({ scan_id: args.scan_id, screen_scores: [...scores].reverse() });
    expect(replay.replayed).toBe(true);
    expect(replay.next_action).toBe(next.next_action);
    expect(replay.payload).toEqual(next.payload);
    const changed = scores.map((s, i) =>
      i === 0 ? { ...s, score: ((s.score + 1) % 4) as 0 | 1 | 2 | 3 } : s,
    );
    const e = await refusal(engine.continue({ scan_id: args.scan_id, screen_scores: changed }));
    expect(e.code).toBe("conflict");
    expect(e.detail).toMatchObject({ conflict: "already_accepted", batch: 0, next_action: next.next_action });
    expect(e.message).toContain(`The scan now asks for ${next.next_action}`);
  });

  it("verify before every shortlisted paper is ranked: bad_artifact with missing_ids; after completion nothing new", async () => {
    const engine = r.engine();
    const args = startArgs();
    let env = await engine.start(args);
    while (env.next_action !== "rank_shortlist") {
      if (env.next_action === "screen_candidates") {
        env = await engine.continue({
          scan_id: args.scan_id,
          screen_scores: scoreBatch((env.payload.batch as Items).items),
        });
      } else env = await engine.continue({ scan_id: args.scan_id });
    }
    const page = (env.payload.page as Items).items;
    const shortlisted = env.progress.shortlisted as number;
    expect(shortlisted).toBeGreaterThan(page.length);
    const early = await refusal(engine.verify({ scan_id: args.scan_id, ranked_entries: rankPage(page, 1) }));
    // The other pages were never shown: the refusal names no id of theirs, only which page to read.
    expect(early.detail.reason).toBe("unread_pages");
    expect(early.detail.unread_pages).toContain(1);
    expect(early.detail.missing_ids).toBeUndefined();
    expect(early.message).toContain("scan_continue with scan_id alone");
    // Ranks made up for papers of a page never shown are refused, never accepted.
    const state = JSON.parse(readFileSync(join(r.dataDir, args.scan_id, "scan.json"), "utf8"));
    const unseen = state.pages[1].doc_ids as number[];
    const madeUp = unseen.map((doc_id, i) => ({ doc_id, rank: page.length + 1 + i }));
    const blind = await refusal(engine.verify({ scan_id: args.scan_id, ranked_entries: madeUp }));
    expect(blind.detail).toMatchObject({ reason: "unread_pages", next_action: "rank_shortlist" });
    expect(shortlisted).toBeGreaterThan(page.length);
    // The page sent with verify was merged: it is not asked for again.
    const poll = await engine.continue({ scan_id: args.scan_id });
    expect((poll.payload.page as { index: number }).index).toBe(1);
    const seen = await driveToEnd(engine, poll, 200, page.length + 1);
    const done = seen.at(-1);
    expect(done?.next_action).toBe("complete");
    const again = await engine.verify({ scan_id: args.scan_id });
    expect(again.payload).toEqual(done?.payload);
    const changed = await refusal(
      engine.verify({ scan_id: args.scan_id, ranked_entries: [{ doc_id: page[0]?.doc_id ?? 0, rank: 99 }] }),
    );
    expect(changed.code).toBe("conflict");
    const late = await refusal(engine.continue({ scan_id: args.scan_id, screen_scores: [] }));
    expect(late.detail).toMatchObject({ reason: "wrong_phase", next_action: "complete" });
  });

  it("a rank orders the whole shortlist: a rank given twice, on a page or across pages, is bad_artifact naming it", async () => {
    const engine = r.engine();
    const args = startArgs();
    let env = await engine.start(args);
    while (env.next_action !== "rank_shortlist") {
      env =
        env.next_action === "screen_candidates"
          ? await engine.continue({
              scan_id: args.scan_id,
              screen_scores: scoreBatch((env.payload.batch as Items).items),
            })
          : await engine.continue({ scan_id: args.scan_id });
    }
    const page = (env.payload.page as Items).items;
    const twiceOnPage = rankPage(page, 1).map((e, i) => (i === 1 ? { ...e, rank: 1 } : e));
    const onPage = await refusal(engine.continue({ scan_id: args.scan_id, ranked_entries: twiceOnPage }));
    expect(onPage.code).toBe("invalid_argument");
    expect(onPage.detail).toMatchObject({
      reason: "bad_artifact",
      field: "ranked_entries.rank",
      duplicate_ranks: [{ rank: 1, doc_ids: [page[0]?.doc_id, page[1]?.doc_id] }],
    });
    expect(onPage.message).toContain("rank 1 is given to");
    // A rank beyond the shortlist (50 of a shortlist of 40, say) orders nothing: bad_artifact.
    const shortlisted = env.progress.shortlisted as number;
    const beyond = rankPage(page, 1).map((e, i) => (i === 0 ? { ...e, rank: shortlisted + 10 } : e));
    const outside = await refusal(engine.continue({ scan_id: args.scan_id, ranked_entries: beyond }));
    expect(outside.code).toBe("invalid_argument");
    expect(outside.detail).toMatchObject({
      reason: "bad_artifact",
      field: "ranked_entries.rank",
      bad_rank_ids: [page[0]?.doc_id],
      next_action: "rank_shortlist",
    });
    expect(outside.message).toContain(`from 1 to ${shortlisted}`);
    const first = await engine.continue({ scan_id: args.scan_id, ranked_entries: rankPage(page, 1) });
    const next = (first.payload.page as Items).items;
    expect(next.length).toBeGreaterThan(0);
    // Page 2 starting again at 1 reuses ranks page 1 holds.
    const across = await refusal(
      engine.continue({ scan_id: args.scan_id, ranked_entries: rankPage(next, 1) }),
    );
    expect(across.detail.duplicate_ranks).toEqual(
      next.map((it, i) => ({ rank: i + 1, doc_ids: [page[i]?.doc_id, it.doc_id] })),
    );
    // The same through scan_verify; and ranks that go on from page 1 are accepted.
    const viaVerify = await refusal(
      engine.verify({ scan_id: args.scan_id, ranked_entries: rankPage(next, 1) }),
    );
    expect(viaVerify.detail.reason).toBe("bad_artifact");
    const ok = await engine.continue({
      scan_id: args.scan_id,
      ranked_entries: rankPage(next, page.length + 1),
    });
    expect(ok.progress.ranked).toBe(page.length + next.length);
  });

  it("a call during another call on that scan: scan_in_progress, while scan_result answers and another scan proceeds", async () => {
    // The first call holds the lock for its whole 6 s wait budget (the runs last longer than that).
    r.kit.setAdmission({ runDurationMs: 8000 });
    const engine = r.engine({ waitMs: 6000 });
    const args = startArgs();
    let runningEnded = false;
    const running = engine.start(args).finally(() => {
      runningEnded = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 150));
    const e = await refusal(engine.continue({ scan_id: args.scan_id }));
    expect(e.code).toBe("conflict");
    expect(e.detail.conflict).toBe("scan_in_progress");
    const read = await engine.result({ scan_id: args.scan_id });
    // An ordering: scan_result answered while the other call still held the lock, not after it.
    expect(runningEnded).toBe(false);
    expect(read.phase).toBe("retrieve");
    // It says a call is running, not "poll with scan_continue" (which would be refused meanwhile).
    expect(read.payload.running).toMatchObject({ tool: "scan_start" });
    expect(String(read.payload.note)).toMatch(
      /^A scan_start call has been working on this scan since .*scan_continue is refused scan_in_progress until that call ends\.$/,
    );
    const other = await r.engine({ waitMs: 100 }).start(startArgs());
    expect(other.next_action).toBe("await_retrieval");
    const env = await running;
    expect(["screen_candidates", "await_retrieval"]).toContain(env.next_action);
    expect((await engine.result({ scan_id: args.scan_id })).payload.running).toBeUndefined();
    // The lock is gone once the call ends.
    expect(readdirSync(join(r.dataDir, args.scan_id))).not.toContain("lock");
  });
});
