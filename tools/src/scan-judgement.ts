/**
 * The scan's judgement pipeline, measured through the built server over stdio with a real MCP
 * Client against the stand-in's demo seed: a scripted model follows next_action alone and this
 * prints, per scenario, how many papers it scored at the top score, how many of them reached the
 * ranking (shown on a shortlist page), how many it ranked, how many papers it screened, its calls
 * and the bytes of every answer. Scenarios:
 *   demo      the testkit's scripted judgements (followScan's screenScores)
 *   many3     a model that scores 2 of every 3 papers 3 (one criterion each, by doc id)
 *   absent    a model that scores everything 0 (a topic the pool does not hold); it takes a
 *             stop-screening option when the server offers one
 * Usage: tsx src/scan-judgement.ts [--server <path to the built bin>] [--json]
 * (--server points at another checkout's packages/mcp-server/dist/bin/… to measure that code.)
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type CallToolResult, Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { scanStartArgs, screenScores, serverEnv, startTestkit, type Testkit } from "@resmon/testkit";
import { builtServer } from "./bench/launch.js";

type Json = Record<string, unknown>;
type Item = Json & { doc_id: number };
type Scorer = (items: Item[]) => Json[];

const SCORERS: Record<string, Scorer> = {
  demo: (items) => screenScores(items),
  many3: (items) =>
    items.map((it) => ({
      doc_id: it.doc_id,
      score: it.doc_id % 3 === 0 ? 1 : 3,
      criteria_hit: [`C${(Math.floor(it.doc_id / 3) % 3) + 1}`],
      reason: "scripted",
    })),
  absent: (items) =>
    items.map((it) => ({ doc_id: it.doc_id, score: 0, criteria_hit: [], reason: "scripted" })),
};

export interface JudgementRun {
  scenario: string;
  profile: string;
  top: number;
  /** Papers the model scored at the highest score it gave. */
  topScored: number;
  /** Of those, how many were on a shortlist page it was asked to rank. */
  topScoredRanked: number;
  /** Of those, how many the server said it left out (payload.left_out), so the model could pull them in. */
  topScoredSaidLeftOut: number;
  ranked: number;
  screened: number;
  calls: number;
  answerBytes: number;
  finalNextAction: string;
  /** Ranked papers per criterion the model marked. */
  rankedPerCriterion: Record<string, number>;
}

function items(payload: Json, key: "batch" | "page"): Item[] {
  const list = (payload[key] as { items?: unknown } | undefined)?.items;
  return Array.isArray(list) ? (list as Item[]) : [];
}

async function run(
  client: Client,
  scenario: string,
  profile: "quick" | "standard",
  top: number,
): Promise<JudgementRun> {
  const scanId = randomUUID();
  const start = { ...scanStartArgs({ scanId, profile, top }) };
  const scorer = SCORERS[scenario] as Scorer;
  const scores = new Map<number, Json>();
  const onPages = new Set<number>();
  const saidLeftOut = new Set<number>();
  let calls = 0;
  let bytes = 0;
  let ranked = 0;
  let screened = 0;
  const send = async (name: string, args: Json): Promise<Json> => {
    calls++;
    const res = (await client.callTool({ name, arguments: args }, { timeout: 180_000 })) as CallToolResult;
    const first = res.content[0];
    const text = first?.type === "text" ? first.text : "{}";
    bytes += Buffer.byteLength(text);
    const body = JSON.parse(text) as Json;
    if (res.isError) throw new Error(`${name}: ${text.slice(0, 400)}`);
    return body;
  };
  let env = await send("scan_start", start);
  for (let i = 0; i < 400; i++) {
    const payload = (env.payload ?? {}) as Json;
    const next = String(env.next_action);
    if (next === "complete") break;
    if (next === "await_retrieval") env = await send("scan_continue", { scan_id: scanId });
    else if (next === "retry_start") env = await send("scan_start", start);
    else if (next === "screen_candidates") {
      const options = (payload.options ?? []) as { option?: string; tool: string; arguments: Json }[];
      const stop = options.find((o) => o.option === "stop_screening");
      if (scenario === "absent" && stop) {
        env = await send(stop.tool, stop.arguments);
        continue;
      }
      const sent = scorer(items(payload, "batch"));
      for (const s of sent) scores.set(Number(s.doc_id), s);
      screened += sent.length;
      env = await send("scan_continue", { scan_id: scanId, screen_scores: sent });
    } else if (next === "write_gap_queries")
      env = await send("scan_continue", { scan_id: scanId, gap_queries: [] });
    else if (next === "rank_shortlist") {
      for (const x of (payload.left_out as { doc_ids?: number[] } | undefined)?.doc_ids ?? [])
        saidLeftOut.add(x);
      const page = items(payload, "page");
      const entries = page.map((it, k) => ({ doc_id: it.doc_id, rank: ranked + k + 1, why: "scripted" }));
      for (const it of page) onPages.add(it.doc_id);
      ranked += entries.length;
      env = await send("scan_continue", { scan_id: scanId, ranked_entries: entries });
    } else if (next === "verify_ranked") env = await send("scan_verify", { scan_id: scanId });
    else if (next === "choose_option") {
      const options = (payload.options ?? []) as {
        tool: string;
        arguments: Json | null;
        needs_person?: boolean;
      }[];
      const pick = options.find((o) => !o.needs_person && o.arguments);
      if (!pick?.arguments) throw new Error("choose_option with nothing a harness may take alone");
      env = await send(pick.tool, pick.arguments);
    } else throw new Error(`unexpected next_action ${next}`);
  }
  const best = Math.max(0, ...[...scores.values()].map((s) => Number(s.score)));
  const topIds = [...scores.values()]
    .filter((s) => best > 0 && Number(s.score) === best)
    .map((s) => Number(s.doc_id));
  const perCriterion: Record<string, number> = {};
  for (const id of onPages)
    for (const c of (scores.get(id)?.criteria_hit as string[] | undefined) ?? [])
      perCriterion[c] = (perCriterion[c] ?? 0) + 1;
  return {
    scenario,
    profile,
    top,
    topScored: topIds.length,
    topScoredRanked: topIds.filter((id) => onPages.has(id)).length,
    topScoredSaidLeftOut: topIds.filter((id) => saidLeftOut.has(id)).length,
    ranked,
    screened,
    calls,
    answerBytes: bytes,
    finalNextAction: String(env.next_action),
    rankedPerCriterion: perCriterion,
  };
}

async function withServer<T>(
  kit: Testkit,
  bin: string | undefined,
  work: (c: Client) => Promise<T>,
): Promise<T> {
  const dataDir = mkdtempSync(join(tmpdir(), "scan-judgement-"));
  const launch = bin ? { command: process.execPath, args: [bin] } : builtServer();
  const transport = new StdioClientTransport({
    command: launch.command,
    args: launch.args,
    env: serverEnv(kit, { RESMON_MCP_SCAN_DATA: dataDir }),
    stderr: "ignore",
  });
  const client = new Client({ name: "scan-judgement", version: "0.0.0" });
  try {
    await client.connect(transport);
    return await work(client);
  } finally {
    await client.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const at = argv.indexOf("--server");
  const bin = at >= 0 ? argv[at + 1] : undefined;
  const stateDir = mkdtempSync(join(tmpdir(), "scan-judgement-kit-"));
  const kit = await startTestkit({ stateDir, seed: "demo" });
  kit.setAdmission({ runDurationMs: 20 });
  const runs: JudgementRun[] = [];
  try {
    await withServer(kit, bin, async (client) => {
      for (const [scenario, profile, top] of [
        ["demo", "standard", 5],
        ["demo", "standard", 10],
        ["many3", "standard", 5],
        ["many3", "standard", 10],
        ["absent", "standard", 10],
      ] as const) {
        runs.push(await run(client, scenario, profile, top));
      }
    });
  } finally {
    await kit.stop();
    rmSync(stateDir, { recursive: true, force: true });
  }
  if (argv.includes("--json")) {
    process.stdout.write(`${JSON.stringify(runs, null, 1)}\n`);
    return;
  }
  for (const r of runs) {
    process.stdout.write(
      `${r.scenario} ${r.profile} top ${r.top}: top-scored ${r.topScored}, reached ranking ${r.topScoredRanked}, said left out ${r.topScoredSaidLeftOut}; ranked ${r.ranked}; screened ${r.screened}; calls ${r.calls}; answer bytes ${r.answerBytes}; ranked per criterion ${JSON.stringify(r.rankedPerCriterion)}; ended ${r.finalNextAction}\n`,
    );
  }
}

await main();
