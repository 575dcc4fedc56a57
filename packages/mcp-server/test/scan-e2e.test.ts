import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROUTES, TOOL_BY_NAME } from "@resmon/mcp-contract";
import {
  followScan,
  payloadItems,
  scanStartArgs,
  screenScores,
  startTestkit,
  type Testkit,
} from "@resmon/testkit";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  admittedSweeps,
  filesUnder,
  openScanSession,
  randomScanId,
  type ScanSession,
} from "./helpers/scan-session.js";
import { HAVE_CLI, waitForProbe } from "./helpers/spawn.js";

/**
 * The scan toolset end to end: the built `resmon-mcp` over stdio (the SDK client) against an
 * in-process stand-in, no network, a scripted model (@resmon/testkit's followScan) that follows
 * next_action alone.
 */
let kit: Testkit;
let dir: string;
let dataDir: string;
let session: ScanSession;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "resmon-mcp-scan-"));
  dataDir = join(dir, "scans");
  kit = await startTestkit({ stateDir: dir, seed: "demo" });
  kit.setAdmission({ runDurationMs: 200 });
  // A failed round is sent again after RESMON_MCP_SCAN_RETRY_WAIT_MS (60 s by default), which is
  // all waiting: 1 s here takes the same path (the "every sweep failed" case took 81 s with 60).
  session = await openScanSession(kit, dataDir, {
    RESMON_MCP_SCAN_WAIT_MS: "3000",
    RESMON_MCP_SCAN_RETRY_WAIT_MS: "1000",
  });
}, 60_000);

afterAll(async () => {
  await session?.close();
  await kit?.stop();
  rmSync(dir, { recursive: true, force: true });
});

afterEach(() => {
  kit.clearFaults();
  kit.failSweeps(null);
  kit.freeSlots();
  kit.releaseRuns();
  kit.setAdmission({ maxConcurrent: 3, runDurationMs: 200 });
});

const routePatterns = ROUTES.map((r) => ({
  key: `${r.method} ${r.path}`,
  method: r.method,
  re: new RegExp(`^${r.path.replace(/\{[^}]+\}/g, "[^/]+")}$`),
}));
const scanRoutes = new Set(
  ["scan_start", "scan_continue", "scan_verify"].flatMap((n) =>
    TOOL_BY_NAME[n as "scan_start"].routes.map((r) => `${r.method} ${r.path}`),
  ),
);

function routesReached(from: number): Set<string> {
  const out = new Set<string>();
  // resmon's own route list (read once per runtime id) is the server's, not a route of a scan tool.
  for (const req of kit.requests.slice(from).filter((r) => r.path !== "/openapi.json")) {
    const hit = routePatterns.find((p) => p.method === req.method && p.re.test(req.path));
    out.add(hit ? hit.key : `unmatched ${req.method} ${req.path}`);
  }
  return out;
}

describe.skipIf(!HAVE_CLI)("a whole scan over stdio", () => {
  it.each([["sweep"], ["corpus"], ["both"]] as const)(
    "retrieval %s: start → screen every batch → gap → rank every page → verify → complete, with the evidence written",
    async (retrieval) => {
      const from = kit.requests.length;
      const scanId = randomScanId();
      const { calls, final } = await followScan(session.call, scanStartArgs({ scanId, retrieval }));
      const actions = calls.map((c) => String(c.body.next_action));
      expect(actions).toContain("screen_candidates");
      expect(actions).toContain("rank_shortlist");
      expect(actions.at(-2)).toBe("complete");
      expect(final).toMatchObject({
        scan_id: scanId,
        phase: "complete",
        status: "ok",
        next_action: "complete",
      });
      for (const c of calls)
        expect(TOOL_BY_NAME[c.name as "scan_start"].output.safeParse(c.body).success).toBe(true);
      // Every screening batch was answered in full, and every shortlist page ranked.
      const screened = calls.filter((c) => c.args.screen_scores !== undefined);
      expect(screened.length).toBeGreaterThan(0);
      for (const f of ["evidence.json", "evidence.md", "evidence.bib"]) {
        expect(existsSync(join(dataDir, scanId, f)), f).toBe(true);
      }
      expect(JSON.stringify(final.payload)).toContain("evidence.json");
      const evidence = JSON.parse(readFileSync(join(dataDir, scanId, "evidence.json"), "utf8")) as Record<
        string,
        unknown
      >;
      expect(JSON.stringify(evidence)).toContain("resmon_record");
      // What the scan reached: only its tools' declared routes, and the right retrieval.
      const reached = routesReached(from);
      for (const key of reached) expect(scanRoutes.has(key), key).toBe(true);
      expect(reached.has("POST /api/search/sweep")).toBe(retrieval !== "corpus");
      // Sweeps too: each run's rows are put in resmon's ranking of the query (corpus search) before paging.
      expect(reached.has("POST /api/explorer/search")).toBe(true);
      expect(kit.strictnessRefusals()).toBe(0);
      // No sweep started twice.
      for (const [query, n] of admittedSweeps(kit, from)) expect(n, query).toBe(1);
    },
    180_000,
  );
});

describe.skipIf(!HAVE_CLI)("a read-only session (RESMON_MCP_READ_ONLY=1)", () => {
  it("lists scan_result alone of the four, reads a scan another session ran, and refuses the writes before anything is written or sent", async () => {
    const scanId = randomScanId();
    await followScan(session.call, scanStartArgs({ scanId, retrieval: "corpus", profile: "quick" }));
    const readOnly = await openScanSession(kit, dataDir, { RESMON_MCP_READ_ONLY: "1" });
    try {
      const { tools } = await readOnly.client.listTools();
      expect(tools.map((t) => t.name).filter((n) => n.startsWith("scan_"))).toEqual(["scan_result"]);
      const read = await readOnly.call("scan_result", { scan_id: scanId });
      expect(read.ok, JSON.stringify(read.body)).toBe(true);
      expect(read.body.phase).toBe("complete");
      // The session's start-up check (one GET /api/health) is not one of the refused calls' requests.
      await waitForProbe(readOnly.stderr);
      const from = kit.requests.length;
      const before = filesUnder(dataDir);
      for (const [name, args] of [
        ["scan_start", scanStartArgs({ scanId: randomScanId() })],
        ["scan_continue", { scan_id: scanId }],
        ["scan_verify", { scan_id: scanId }],
      ] as const) {
        const refused = await readOnly.call(name, args);
        expect(refused.body, name).toMatchObject({ error: "invalid_argument", detail: { read_only: true } });
      }
      expect(kit.requests.length).toBe(from);
      expect(filesUnder(dataDir)).toEqual(before);
    } finally {
      await readOnly.close();
    }
  }, 120_000);
});

describe.skipIf(!HAVE_CLI)("admission", () => {
  it("sweeps refused 429 while resmon's slots are full (a queued routine fire goes first) wait their turn: the scan answers await_retrieval, then proceeds", async () => {
    kit.setAdmission({ maxConcurrent: 2 });
    kit.fillSlots();
    const from = kit.requests.length;
    const scanId = randomScanId();
    const args = scanStartArgs({ scanId });
    const first = await session.call("scan_start", args);
    expect(first.ok, JSON.stringify(first.body)).toBe(true);
    expect(first.body.next_action).toBe("await_retrieval");
    const refused = kit.requests
      .slice(from)
      .filter((r) => r.route === "/api/search/sweep" && r.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    // A routine fire queued meanwhile (resmon's own queue) takes the first slot that frees.
    const fire = await fetch(`${kit.baseUrl}/api/routines/2/run`, {
      method: "POST",
      headers: { authorization: `Bearer ${kit.token}` },
    });
    expect(fire.status).toBe(202);
    expect(((await fire.json()) as { queued?: boolean }).queued).toBe(true);
    kit.freeSlots();
    const { final } = await followScan(session.call, args);
    expect(final.phase).toBe("complete");
    for (const [query, n] of admittedSweeps(kit, from)) expect(n, query).toBe(1);
    expect(admittedSweeps(kit, from).size).toBe(6);
  }, 180_000);
});

describe.skipIf(!HAVE_CLI)("refusals through MCP", () => {
  it("a non-canonical scan_id: invalid_argument naming scan_id, nothing written, nothing sent", async () => {
    const from = kit.requests.length;
    const before = filesUnder(dataDir);
    for (const bad of [
      "0B7E5C1E-3F3A-4C55-9A51-2F1D7C0E9A10",
      "not-a-uuid",
      "0b7e5c1e-3f3a-1c55-9a51-2f1d7c0e9a10",
    ]) {
      for (const [name, args] of [
        ["scan_start", scanStartArgs({ scanId: bad })],
        ["scan_continue", { scan_id: bad }],
        ["scan_verify", { scan_id: bad }],
        ["scan_result", { scan_id: bad }],
      ] as const) {
        const answer = await session.call(name, args);
        expect(answer.ok).toBe(false);
        expect(answer.body).toMatchObject({ error: "invalid_argument", detail: { field: "scan_id" } });
        // In words, never the raw pattern; capitals get the one fix that helps.
        const message = String((answer.body as { message: string }).message);
        expect(message).not.toMatch(/\[0-9a-f\]|pattern|regex/i);
        if (bad === bad.toUpperCase()) expect(message).toContain("use lowercase");
      }
    }
    expect(kit.requests.length).toBe(from);
    expect(filesUnder(dataDir)).toEqual(before);
  });

  it("an unknown scan is not_found, and nothing is written", async () => {
    const before = filesUnder(dataDir);
    for (const name of ["scan_continue", "scan_verify", "scan_result"]) {
      const answer = await session.call(name, { scan_id: randomScanId() });
      expect(answer.body, name).toMatchObject({ error: "not_found" });
    }
    expect(filesUnder(dataDir)).toEqual(before);
  });

  it("the same id with other inputs: conflict scan_id_conflict naming the arguments, never their values; no sweep started", async () => {
    const scanId = randomScanId();
    const args = scanStartArgs({ scanId });
    expect((await session.call("scan_start", args)).ok).toBe(true);
    const from = kit.requests.length;
    const changed = { ...args, brief: "# A secret other brief", top: 5 };
    const answer = await session.call("scan_start", changed);
    expect(answer.body).toMatchObject({ error: "conflict", detail: { conflict: "scan_id_conflict" } });
    expect([...((answer.body.detail as { differs: string[] }).differs ?? [])].sort()).toEqual([
      "brief",
      "top",
    ]);
    expect(JSON.stringify(answer.body)).not.toContain("secret other brief");
    expect(admittedSweeps(kit, from).size).toBe(0);
    // Omitting an argument that equals its default is no change.
    const same = await session.call("scan_start", {
      ...args,
      retrieval: "sweep",
      profile: "standard",
      top: 10,
    });
    expect(same.ok, JSON.stringify(same.body)).toBe(true);
  });

  it("a call during another call on that scan: scan_in_progress, while scan_result answers before that call ends and another scan proceeds", async () => {
    kit.holdRuns();
    const slow = await openScanSession(kit, dataDir, { RESMON_MCP_SCAN_WAIT_MS: "6000" });
    try {
      const scanId = randomScanId();
      const args = scanStartArgs({ scanId });
      const from = kit.requests.length;
      let runningEnded = false;
      const running = slow
        .call("scan_start", args)
        .catch((err: unknown) => ({ ok: false, body: { thrown: String(err) } }))
        .finally(() => {
          runningEnded = true;
        });
      // Wait until the first call holds the scan's lock: resmon admitted as many sweeps as it has slots.
      for (let i = 0; i < 500 && admittedSweeps(kit, from).size < 3; i++)
        await new Promise((r) => setTimeout(r, 20));
      expect(admittedSweeps(kit, from).size).toBe(3);
      const during = await session.call("scan_continue", { scan_id: scanId });
      expect(during.body).toMatchObject({ error: "conflict", detail: { conflict: "scan_in_progress" } });
      const read = await session.call("scan_result", { scan_id: scanId });
      // An ordering: the first call, its runs held, holds the lock for its 6 s wait budget.
      expect(runningEnded).toBe(false);
      expect(read.ok, JSON.stringify(read.body)).toBe(true);
      expect(read.body.phase).toBe("retrieve");
      const other = await session.call(
        "scan_start",
        scanStartArgs({ scanId: randomScanId(), retrieval: "corpus" }),
      );
      expect(other.ok, JSON.stringify(other.body)).toBe(true);
      expect(other.body.next_action).not.toBe("await_retrieval");
      kit.releaseRuns();
      const first = await running;
      expect(first.ok, JSON.stringify(first.body)).toBe(true);
    } finally {
      kit.releaseRuns();
      await slow.close();
    }
  }, 60_000);

  it("the artifact rules: two artifacts or the wrong one, a batch that does not fit, a changed resend, replays", async () => {
    const scanId = randomScanId();
    const args = scanStartArgs({ scanId, retrieval: "corpus" });
    let envelope = (await session.call("scan_start", args)).body;
    for (let i = 0; i < 50 && envelope.next_action === "await_retrieval"; i++) {
      envelope = (await session.call("scan_continue", { scan_id: scanId })).body;
    }
    expect(envelope.next_action).toBe("screen_candidates");
    const batch = payloadItems(envelope);
    expect(batch.length).toBeGreaterThan(0);
    const scores = screenScores(batch);
    const call = (extra: Record<string, unknown>) =>
      session.call("scan_continue", { scan_id: scanId, ...extra });

    expect((await call({ screen_scores: scores, gap_queries: [] })).body).toMatchObject({
      error: "invalid_argument",
      detail: { reason: "wrong_phase" },
    });
    expect((await call({ ranked_entries: [{ doc_id: batch[0]?.doc_id, rank: 1 }] })).body).toMatchObject({
      error: "invalid_argument",
      detail: { reason: "wrong_phase", next_action: "screen_candidates" },
    });
    const missing = await call({ screen_scores: scores.slice(1) });
    expect(missing.body).toMatchObject({ error: "invalid_argument", detail: { reason: "bad_artifact" } });
    expect((missing.body.detail as { missing_ids: number[] }).missing_ids).toEqual([batch[0]?.doc_id]);
    const repeated = await call({ screen_scores: [...scores, scores[0]] });
    expect((repeated.body.detail as { duplicate_ids: number[] }).duplicate_ids).toEqual([batch[0]?.doc_id]);
    const invented = await call({
      screen_scores: [...scores, { doc_id: 999_999, score: 0, criteria_hit: [] }],
    });
    expect((invented.body.detail as { unknown_ids: number[] }).unknown_ids).toEqual([999_999]);
    const badCriteria = await call({
      screen_scores: scores.map((s, i) => (i === 0 ? { ...s, criteria_hit: ["C6"] } : s)),
    });
    expect(badCriteria.body).toMatchObject({ error: "invalid_argument", detail: { reason: "bad_artifact" } });
    expect(JSON.stringify(badCriteria.body.detail)).toContain("C6");

    const accepted = await call({ screen_scores: scores });
    expect(accepted.ok, JSON.stringify(accepted.body)).toBe(true);
    const replay = await call({ screen_scores: scores });
    expect(replay.ok).toBe(true);
    expect(replay.body.replayed).toBe(true);
    const changed = await call({
      screen_scores: scores.map((s, i) => (i === 0 ? { ...s, score: 3 - Number(s.score) } : s)),
    });
    expect(changed.body).toMatchObject({ error: "conflict", detail: { conflict: "already_accepted" } });
  }, 120_000);

  it("verify before every shortlisted paper is ranked: bad_artifact with missing_ids; after completion nothing new is taken", async () => {
    const scanId = randomScanId();
    const args = scanStartArgs({ scanId, retrieval: "corpus", profile: "quick" });
    let envelope = (await session.call("scan_start", args)).body;
    while (envelope.next_action !== "rank_shortlist") {
      const next =
        envelope.next_action === "screen_candidates"
          ? { screen_scores: screenScores(payloadItems(envelope)) }
          : envelope.next_action === "write_gap_queries"
            ? { gap_queries: [] }
            : {};
      const answer = await session.call("scan_continue", { scan_id: scanId, ...next });
      expect(answer.ok, JSON.stringify(answer.body)).toBe(true);
      envelope = answer.body;
    }
    const page = payloadItems(envelope);
    const early = await session.call("scan_verify", { scan_id: scanId });
    expect(early.body).toMatchObject({ error: "invalid_argument", detail: { reason: "bad_artifact" } });
    expect((early.body.detail as { missing_ids: number[] }).missing_ids).toEqual(
      expect.arrayContaining(page.map((p) => p.doc_id)),
    );
    const { final } = await followScan(session.call, args);
    expect(final.phase).toBe("complete");
    const again = await session.call("scan_verify", {
      scan_id: scanId,
      ranked_entries: [{ doc_id: page[0]?.doc_id, rank: 99 }],
    });
    // A changed rank for a paper of an accepted page: refused, never merged over it.
    expect(again.body).toMatchObject({ error: "conflict", detail: { conflict: "already_accepted" } });
    const invented = await session.call("scan_verify", {
      scan_id: scanId,
      ranked_entries: [{ doc_id: 999_999, rank: 1 }],
    });
    expect(invented.ok).toBe(false);
    expect(["invalid_argument", "conflict"]).toContain(invented.body.error);
    const late = await session.call("scan_continue", {
      scan_id: scanId,
      screen_scores: [{ doc_id: page[0]?.doc_id, score: 3, criteria_hit: ["C1"] }],
    });
    // Screening closed when the shortlist was built: never merged over, even after completion.
    expect(late.body).toMatchObject({
      error: "invalid_argument",
      detail: { reason: "wrong_phase", next_action: "complete" },
    });
    const stored = await session.call("scan_verify", { scan_id: scanId });
    expect(stored.ok, JSON.stringify(stored.body)).toBe(true);
    expect(stored.body.phase).toBe("complete");
    expect(stored.body.payload).toEqual(final.payload);
  }, 120_000);
});

describe.skipIf(!HAVE_CLI)("retry and recovery", () => {
  it("a round in which every sweep failed: upstream_error with retry_start; the same scan_start resubmits only the unfinished sweeps, then proceeds", async () => {
    kit.failSweeps("run_failed");
    const from = kit.requests.length;
    const scanId = randomScanId();
    const args = scanStartArgs({ scanId });
    let answer = await session.call("scan_start", args);
    for (let i = 0; i < 50 && answer.ok && answer.body.next_action === "await_retrieval"; i++) {
      answer = await session.call("scan_continue", { scan_id: scanId });
    }
    expect(answer.body).toMatchObject({
      error: "upstream_error",
      detail: { stage: "retrieve", next_action: "retry_start" },
    });
    const failedRound = admittedSweeps(kit, from);
    expect(failedRound.size).toBe(6);
    kit.failSweeps(null);
    const retryFrom = kit.requests.length;
    const { final } = await followScan(session.call, args);
    expect(final.phase).toBe("complete");
    const resubmitted = admittedSweeps(kit, retryFrom);
    expect([...resubmitted.keys()].sort()).toEqual([...failedRound.keys()].sort());
    for (const n of resubmitted.values()) expect(n).toBe(1);
  }, 180_000);

  it("a backend restart mid-scan is said: the next call backend_unavailable (the token changed), then backend_restarted in progress, and the scan completes", async () => {
    kit.holdRuns();
    const scanId = randomScanId();
    const args = scanStartArgs({ scanId });
    const first = await session.call("scan_start", args);
    expect(first.body.next_action).toBe("await_retrieval");
    await kit.restart();
    kit.releaseRuns();
    // As for every tool: the old token is refused once, and the server looks for resmon afresh.
    const refused = await session.call("scan_continue", { scan_id: scanId });
    expect(refused.body).toMatchObject({ error: "backend_unavailable" });
    const seen: Record<string, unknown>[] = [];
    const { final } = await followScan(session.call, args, { onAnswer: (_n, _a, a) => seen.push(a.body) });
    expect(final.phase).toBe("complete");
    expect(seen.some((b) => (b.progress as Record<string, unknown> | undefined)?.backend_restarted)).toBe(
      true,
    );
  }, 180_000);
});
