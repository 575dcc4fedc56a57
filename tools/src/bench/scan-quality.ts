/**
 * Scan quality on five real systematic reviews (SYNERGY, CC0; ../shared/datasets/synergy): the
 * built server over stdio through the real MCP client, against the stand-in serving the records
 * file (`--corpus`), a simulated model following next_action with the seeded screener
 * (screener.ts) and the plans in tools/bench/synergy-plans.json (written from each review's
 * question alone, before the first measurement). Per review and profile: pool recall, papers
 * screened, model tokens, shortlist recall, precision of the final top 10, wall time; beside them
 * a plain baseline on the same records and plan: each query's BM25 list over the works, merged
 * round-robin, cut at the number of works the scan screened.
 */
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { type CallToolResult, Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import {
  Corpus,
  followScan,
  type Item,
  readCorpus,
  serverEnv,
  startTestkit,
  type Testkit,
  type ToolCall,
} from "@resmon/testkit";
import { builtServer } from "./launch.js";
import { type Row, row } from "./report.js";
import { criteriaHit, type Relation, type Score, simulatedScore } from "./screener.js";
import { countTokens } from "./tokenizer.js";

export const SYNERGY_DIR = join(import.meta.dirname, "..", "..", "..", "..", "shared", "datasets", "synergy");
const PLANS = join(import.meta.dirname, "..", "..", "bench", "synergy-plans.json");
export const SOURCES = ["openalex", "pubmed", "crossref"];
/** The screener's seed: stated, fixed, the same for every run compared. */
export const SCREENER_SEED = 44;
export const TOP = 10;
export type ProfileName = "quick" | "standard" | "deep";

interface Plan {
  brief: string;
  criteria: { id: string; text: string }[];
  queries: { id: string; kind: string; text: string }[];
}

/** What a review's experts decided, by work. */
interface Labels {
  review: Map<string, string>;
  included: Map<string, boolean>;
}

export interface QualityRun {
  review: string;
  profile: ProfileName;
  included: number;
  /** Distinct works among the papers the model screened. */
  screened: number;
  /** Items the model scored (a work shown twice counts twice). */
  screenedItems: number;
  /** Items whose work the model had already screened. */
  repeatedWorks: number;
  poolHits: number;
  shortlistHits: number;
  shortlisted: number;
  top10Included: number;
  tokens: number;
  /** The tokens by what the call carried: scan_start, screen_scores, ranked_entries, a poll, scan_verify, scan_result. */
  tokensBy: Record<string, number>;
  /** The tokens by part of the work (the costs profile.ts's screening budget is worked out from). */
  tokensByPart: TokenParts;
  /** Papers the model ranked (entries it sent). */
  ranked: number;
  toolCalls: number;
  wallMs: number;
  baselineHits: number;
}

function readLabels(file: string): Labels {
  const raw = readFileSync(file);
  const text = (raw[0] === 0x1f ? gunzipSync(raw) : raw).toString("utf8");
  const labels: Labels = { review: new Map(), included: new Map() };
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    const r = JSON.parse(line) as { id: string; review: string; label_included: number };
    labels.review.set(r.id, r.review);
    labels.included.set(r.id, r.label_included === 1);
  }
  return labels;
}

function relationOf(labels: Labels, review: string, work: string | null): Relation {
  if (work === null || labels.review.get(work) !== review) return "other";
  return labels.included.get(work) ? "included" : "excluded";
}

/** The plain baseline: each query's BM25 list of works, merged round-robin, the first `n` distinct. */
export function baselineWorks(corpus: Corpus, queries: readonly string[], n: number): string[] {
  const lists = queries.map((q) => corpus.rankedWorks(q).map((r) => corpus.records[r.work]?.id ?? ""));
  const out: string[] = [];
  const seen = new Set<string>();
  for (let depth = 0; out.length < n && lists.some((l) => depth < l.length); depth++) {
    for (const list of lists) {
      const work = list[depth];
      if (work === undefined || seen.has(work)) continue;
      seen.add(work);
      out.push(work);
      if (out.length >= n) break;
    }
  }
  return out;
}

interface Tally {
  tokens: number;
  by: Record<string, number>;
  /** The same tokens by the part of the work they carry: screening papers, ranking papers, the rest. */
  parts: TokenParts;
}

export interface TokenParts {
  screening: number;
  ranking: number;
  other: number;
}

/** Which part of the work an argument or an answer carries: papers to screen or their scores, papers to rank or their ranks. */
function partOf(body: Record<string, unknown>): keyof TokenParts {
  if ("screen_scores" in body) return "screening";
  if ("ranked_entries" in body) return "ranking";
  const payload = (body.payload ?? {}) as { batch?: { items?: unknown }; page?: { items?: unknown } };
  if (Array.isArray(payload.batch?.items)) return "screening";
  if (Array.isArray(payload.page?.items)) return "ranking";
  return "other";
}

/** A tool call over the client that also counts the model's tokens: every argument and every answer. */
function countingCall(client: Client, tally: Tally): ToolCall {
  return async (name, args) => {
    const result = (await client.callTool({ name, arguments: args }, { timeout: 300_000 })) as CallToolResult;
    const first = result.content[0];
    const text = first?.type === "text" ? first.text : "";
    const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    const argTokens = countTokens(JSON.stringify(args));
    const answerTokens = countTokens(text);
    const what = name === "scan_continue" ? (Object.keys(args).find((k) => k !== "scan_id") ?? "poll") : name;
    tally.tokens += argTokens + answerTokens;
    tally.by[what] = (tally.by[what] ?? 0) + argTokens + answerTokens;
    tally.parts[partOf(args)] += argTokens;
    tally.parts[partOf(body)] += answerTokens;
    return { ok: result.isError !== true, body };
  };
}

function rowsOf(final: Record<string, unknown>): { doc_id: number }[] {
  const payload = (final.payload ?? {}) as Record<string, unknown>;
  const summary = (payload.summary ?? payload) as { rows?: unknown };
  return Array.isArray(summary.rows) ? (summary.rows as { doc_id: number }[]) : [];
}

async function oneScan(
  client: Client,
  kit: Testkit,
  labels: Labels,
  corpus: Corpus,
  review: string,
  plan: Plan,
  profile: ProfileName,
): Promise<QualityRun> {
  const tally: Tally = { tokens: 0, by: {}, parts: { screening: 0, ranking: 0, other: 0 } };
  const criteria = plan.criteria.map((c) => c.id);
  const work = (id: number) => kit.corpusWork(id);
  const scores = new Map<number, Score>();
  const screenedWorks = new Set<string>();
  const shortlistWorks = new Set<string>();
  let screenedItems = 0;
  let repeatedWorks = 0;
  const screen = (items: Item[]) =>
    items.map((item) => {
      const w = work(item.doc_id);
      screenedItems++;
      if (w !== null && screenedWorks.has(w)) repeatedWorks++;
      if (w !== null) screenedWorks.add(w);
      const score = simulatedScore(
        SCREENER_SEED,
        review,
        w ?? `doc:${item.doc_id}`,
        relationOf(labels, review, w),
      );
      scores.set(item.doc_id, score);
      return { doc_id: item.doc_id, score, criteria_hit: criteriaHit(score, criteria) };
    });
  // The model ranks by its own scores (the page's order breaks ties); it knows nothing else.
  let ranked = 0;
  const rank = (items: Item[], firstRank: number) => {
    ranked += items.length;
    return items
      .map((item, i) => ({ item, i, s: scores.get(item.doc_id) ?? 0 }))
      .sort((a, b) => b.s - a.s || a.i - b.i)
      .map(({ item }, i) => {
        const w = work(item.doc_id);
        if (w !== null) shortlistWorks.add(w);
        return {
          doc_id: item.doc_id,
          rank: firstRank + i,
          role: "core",
          why: "simulated",
          cite: {
            ...(typeof item.doi === "string" && item.doi ? { doi: item.doi } : {}),
            ...(typeof item.title === "string" && item.title ? { title: item.title } : {}),
          },
        };
      });
  };
  const started = performance.now();
  const { calls, final } = await followScan(
    countingCall(client, tally),
    {
      scan_id: randomUUID(),
      brief: plan.brief,
      queries: { criteria: plan.criteria, queries: plan.queries },
      sources: SOURCES,
      profile,
      top: TOP,
      allow_duplicate: true,
    },
    { screen, rank, maxCalls: 2_000 },
  );
  const wallMs = performance.now() - started;
  const included = [...labels.review].filter(([w, r]) => r === review && labels.included.get(w)).length;
  const isIncluded = (w: string | null) => w !== null && relationOf(labels, review, w) === "included";
  const top = rowsOf(final).slice(0, TOP);
  const baseline = baselineWorks(
    corpus,
    plan.queries.map((q) => q.text),
    screenedWorks.size,
  );
  return {
    review,
    profile,
    included,
    screened: screenedWorks.size,
    screenedItems,
    repeatedWorks,
    poolHits: [...screenedWorks].filter(isIncluded).length,
    shortlistHits: [...shortlistWorks].filter(isIncluded).length,
    shortlisted: shortlistWorks.size,
    top10Included: top.filter((r) => isIncluded(work(r.doc_id))).length,
    tokens: tally.tokens,
    tokensBy: tally.by,
    tokensByPart: tally.parts,
    ranked,
    toolCalls: calls.length + 1,
    wallMs,
    baselineHits: baseline.filter(isIncluded).length,
  };
}

export interface QualityReport {
  records: string;
  sweepMs: { median: number; max: number; documents: number; queries: number };
  runs: QualityRun[];
}

/** A sweep's ranking over the three sources, as the stand-in answers it, for every plan query. */
function timeSweeps(corpus: Corpus, queries: readonly string[]): QualityReport["sweepMs"] {
  const times = queries.map((q) => {
    const t = performance.now();
    for (const s of SOURCES) corpus.sweep(q, s, 40, () => true);
    return performance.now() - t;
  });
  const sorted = [...times].sort((a, b) => a - b);
  return {
    median: sorted[Math.floor(sorted.length / 2)] ?? 0,
    max: sorted[sorted.length - 1] ?? 0,
    documents: corpus.papers.length,
    queries: queries.length,
  };
}

export function synergyAvailable(dir = SYNERGY_DIR): boolean {
  return existsSync(join(dir, "records.jsonl.gz"));
}

/** Every review of the plans at each profile, one server process over stdio for all. */
export async function measureScanQuality(
  profiles: readonly ProfileName[],
  say: (line: string) => void,
  dir = SYNERGY_DIR,
): Promise<QualityReport> {
  const file = join(dir, "records.jsonl.gz");
  const plans = (JSON.parse(readFileSync(PLANS, "utf8")) as { plans: Record<string, Plan> }).plans;
  const labels = readLabels(file);
  const corpus = new Corpus(readCorpus(file));
  const sweepMs = timeSweeps(
    corpus,
    Object.values(plans).flatMap((p) => p.queries.map((q) => q.text)),
  );
  const stateDir = mkdtempSync(join(tmpdir(), "resmon-bench-quality-"));
  const dataDir = mkdtempSync(join(tmpdir(), "resmon-bench-quality-scans-"));
  const kit = await startTestkit({ stateDir, corpus: file });
  // Runs end quickly and eight fit at once: what is measured is the scan, not resmon's run slots.
  kit.setAdmission({ maxConcurrent: 8, runDurationMs: 20 });
  const launch = builtServer();
  const client = new Client({ name: "bench-scan-quality", version: "0.0.0" });
  const runs: QualityRun[] = [];
  try {
    await client.connect(
      new StdioClientTransport({
        command: launch.command,
        args: launch.args,
        env: serverEnv(kit, { RESMON_MCP_SCAN_DATA: dataDir }),
        stderr: "ignore",
      }),
    );
    for (const profile of profiles) {
      for (const [review, plan] of Object.entries(plans)) {
        say(`scan quality: ${review}, ${profile}…`);
        runs.push(await oneScan(client, kit, labels, corpus, review, plan, profile));
      }
    }
  } finally {
    await client.close();
    await kit.stop();
    rmSync(stateDir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
  return { records: file, sweepMs, runs };
}

/**
 * What the model's work cost, the most over the runs: tokens per screened paper (screening's part
 * over the items scored), per ranked paper (ranking's part over the entries sent), and the rest.
 */
export function tokenCosts(runs: readonly QualityRun[]): {
  perScreened: number;
  perRanked: number;
  besidesPapers: number;
} {
  const most = (f: (r: QualityRun) => number) => Math.max(0, ...runs.map(f));
  return {
    perScreened: most((r) => Math.ceil(r.tokensByPart.screening / Math.max(1, r.screenedItems))),
    perRanked: most((r) => Math.ceil(r.tokensByPart.ranking / Math.max(1, r.ranked))),
    besidesPapers: most((r) => r.tokensByPart.other),
  };
}

const pct = (n: number, d: number) => (d === 0 ? 0 : Math.round((1000 * n) / d) / 10);

/** Summed over the reviews of one profile, with the goals where it sets them (standard). */
export function profileTotals(runs: readonly QualityRun[]): {
  misses: number;
  baselineMisses: number;
  worstBeyondBaseline: number;
  meanPrecision: number;
  maxTokens: number;
  repeated: number;
} {
  return {
    misses: runs.reduce((n, r) => n + r.included - r.poolHits, 0),
    baselineMisses: runs.reduce((n, r) => n + r.included - r.baselineHits, 0),
    worstBeyondBaseline: Math.max(...runs.map((r) => r.baselineHits - r.poolHits)),
    meanPrecision: runs.reduce((n, r) => n + r.top10Included / TOP, 0) / Math.max(1, runs.length),
    maxTokens: Math.max(...runs.map((r) => r.tokens)),
    repeated: runs.reduce((n, r) => n + r.repeatedWorks, 0),
  };
}

export function scanQualityRows(report: QualityReport, load: string): Row[] {
  const rows: Row[] = [
    row(
      `scan quality: a stand-in sweep over three sources, SYNERGY records, median of the plans' queries`,
      "ms",
      report.sweepMs.median,
      null,
      "< 50 ms",
      report.sweepMs.median < 50,
    ),
  ];
  for (const r of report.runs) {
    const what = `scan quality, ${r.review}, ${r.profile}`;
    rows.push(
      row(
        `${what}: pool recall, % of ${r.included} included (vs the plain baseline at the same number screened)`,
        "%",
        pct(r.poolHits, r.included),
        pct(r.baselineHits, r.included),
        "info",
        null,
      ),
      row(`${what}: papers screened (distinct works)`, "", r.screened, null, "info", null),
      row(`${what}: shortlist recall`, "%", pct(r.shortlistHits, r.included), null, "info", null),
      row(`${what}: precision of the final top ${TOP}`, "%", pct(r.top10Included, TOP), null, "info", null),
      row(`${what}: model tokens (cl100k, every argument and answer)`, "", r.tokens, null, "info", null),
      row(`${what}: wall time, load average ${load}`, "ms", r.wallMs, null, "info", null),
    );
  }
  const standard = report.runs.filter((r) => r.profile === "standard");
  if (standard.length) {
    const t = profileTotals(standard);
    rows.push(
      row(
        "scan quality, standard, summed over the reviews: included papers the pool missed (vs the baseline's misses)",
        "",
        t.misses,
        t.baselineMisses,
        "≤ 2/3 of the baseline's",
        t.misses <= (2 / 3) * t.baselineMisses,
      ),
      row(
        "scan quality, standard: most papers one review's pool missed beyond its baseline",
        "",
        t.worstBeyondBaseline,
        null,
        "≤ 1",
        t.worstBeyondBaseline <= 1,
      ),
      row(
        "scan quality, standard: mean precision of the final top 10",
        "%",
        Math.round(1000 * t.meanPrecision) / 10,
        null,
        "≥ 80 %",
        t.meanPrecision >= 0.8,
      ),
      row(
        "scan quality, standard: most model tokens in one scan",
        "",
        t.maxTokens,
        null,
        "≤ 40,000",
        t.maxTokens <= 40_000,
      ),
      row(
        "scan quality, standard: screened papers whose work the model had already screened",
        "",
        t.repeated,
        null,
        "0",
        t.repeated === 0,
      ),
    );
  }
  return rows;
}

/** The Markdown table the README shows (and the closing note's before/after), one line per run, aligned as biome formats it. */
export function qualityTable(runs: readonly QualityRun[]): string {
  const header = [
    "review",
    "profile",
    "included",
    "screened",
    "pool recall",
    "baseline recall",
    "shortlist recall",
    "top-10 precision",
    "tokens",
    "wall time",
  ];
  const body = runs.map((r) => [
    r.review,
    r.profile,
    String(r.included),
    String(r.screened),
    `${r.poolHits} (${pct(r.poolHits, r.included)} %)`,
    `${r.baselineHits} (${pct(r.baselineHits, r.included)} %)`,
    String(r.shortlistHits),
    `${r.top10Included}/${TOP}`,
    r.tokens.toLocaleString("en-US"),
    `${(r.wallMs / 1000).toFixed(1)} s`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((cells) => (cells[i] ?? "").length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(" | ")} |`;
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...body.map(line)].join("\n");
}
