/**
 * The screening budget holds for every paper a model can be asked to screen, the gap round's
 * included: a scan at standard whose model writes the most gap queries (8) screens no more than
 * the profile's screening budget, and its whole conversation stays within the token budget.
 */
import type { QueryPlan, ScanEnvelope } from "@resmon/mcp-contract";
import { Tiktoken } from "js-tiktoken/lite";
import cl100kBase from "js-tiktoken/ranks/cl100k_base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { screenBudgetOf } from "../src/feedback.js";
import { BATCH_SIZE, PROFILES } from "../src/profile.js";
import { corpusRig, type Rig } from "./helpers/backend.js";
import { rankPage } from "./helpers/model.js";
import { startArgs } from "./helpers/plan.js";

const encoder = new Tiktoken(cl100kBase);
const tokens = (value: unknown) => encoder.encode(JSON.stringify(value)).length;

// A deterministic corpus shaped like SYNERGY's records (a title of about a dozen words, three
// authors, an abstract past the screening cut): 240 papers on the plan's topic, each holding two of
// its six query words, and 10 papers for each of eight gap words that no plan query reaches.
const PLAN_WORDS = ["cohort", "trial", "outcome", "therapy", "patient", "risk"];
const GAP_WORDS = ["fibrosis", "imaging", "genome", "sleep", "diet", "vaccine", "enzyme", "hearing"];
const FILL =
  "Methods were prespecified and analysed by intention to treat with sensitivity analyses for missing data; results are reported with confidence intervals and the limitations of observational designs are discussed at length in the final section of the report.";
const paper = (id: string, title: string, words: string, year: number) => ({
  id: `https://openalex.org/W${id}`,
  title,
  abstract: `Background: ${words} were studied in this work. ${FILL} ${words}.`,
  year,
  authors: [`Ann ${id}son`, `Bo ${id}berg`, `Cy ${id}ley`],
});
const records = [
  ...Array.from({ length: 240 }, (_, i) => {
    const a = PLAN_WORDS[i % 6] as string;
    const b = PLAN_WORDS[(i + 1 + Math.floor(i / 6)) % 6] as string;
    return paper(
      `P${i}`,
      `Carotid stenosis ${a} and ${b} findings in a study number ${i}`,
      `${a} ${b}`,
      1990 + (i % 30),
    );
  }),
  ...GAP_WORDS.flatMap((g, j) =>
    Array.from({ length: 10 }, (_, i) =>
      paper(`G${j}x${i}`, `Carotid stenosis and ${g}: a report number ${i}`, g, 2000 + i),
    ),
  ),
];

let r: Rig;
beforeAll(async () => {
  r = await corpusRig(records);
});
afterAll(() => r.close());

type Item = { doc_id: number; title: string; doi?: string | null };

const PLAN: QueryPlan = {
  criteria: [
    { id: "C1", text: "carotid stenosis" },
    { id: "C2", text: "a condition beside it" },
    { id: "C3", text: "reports a method" },
  ],
  queries: (["direct", "terminology", "contradictory", "review", "mechanism", "method"] as const).map(
    (kind, i) => ({ id: `Q${i + 1}`, kind, text: PLAN_WORDS[i] as string }),
  ),
};

/**
 * A whole scan at standard, following next_action, its model writing `gapQueries` when asked: the
 * papers it was asked to screen (those of gap batches apart) and the tokens of every argument and
 * answer (cl100k, as the bench counts them).
 */
async function scanWith(
  gapQueries: { text: string; criterion: string }[],
  over: Partial<Parameters<typeof startArgs>[0]> = {},
) {
  const engine = r.engine();
  const args = startArgs({
    sources: ["openalex"],
    profile: "standard",
    per_query: undefined,
    queries: PLAN,
    ...over,
  });
  const scan_id = args.scan_id;
  let spent = tokens(args);
  const call = async (send: () => Promise<ScanEnvelope>, sent: unknown) => {
    const env = await send();
    spent += tokens(sent) + tokens(env);
    return env;
  };
  let env = await call(() => engine.start(args), {});
  const screened: number[] = [];
  const gapItems: number[] = [];
  let asked = false;
  let rank = 1;
  for (let i = 0; i < 200 && env.next_action !== "complete"; i++) {
    if (env.next_action === "screen_candidates") {
      const batch = env.payload.batch as { kind: string; items: Item[] };
      screened.push(...batch.items.map((it) => it.doc_id));
      if (batch.kind === "gap") gapItems.push(...batch.items.map((it) => it.doc_id));
      // Every paper meets C1 only, so C2 and C3 stay thin and standard asks for a gap round.
      const screen_scores = batch.items.map((it) => ({
        doc_id: it.doc_id,
        score: GAP_WORDS.some((g) => it.title.includes(g)) ? (2 as const) : (3 as const),
        criteria_hit: ["C1"],
      }));
      env = await call(() => engine.continue({ scan_id, screen_scores }), { scan_id, screen_scores });
    } else if (env.next_action === "write_gap_queries") {
      asked = true;
      env = await call(() => engine.continue({ scan_id, gap_queries: gapQueries }), {
        scan_id,
        gap_queries: gapQueries,
      });
    } else if (env.next_action === "rank_shortlist") {
      const items = (env.payload.page as { items: Item[] }).items;
      const ranked_entries = rankPage(items, rank);
      rank += items.length;
      env = await call(() => engine.continue({ scan_id, ranked_entries }), { scan_id, ranked_entries });
    } else if (env.next_action === "verify_ranked") {
      env = await call(() => engine.verify({ scan_id }), { scan_id });
    } else {
      env = await call(() => engine.continue({ scan_id }), { scan_id });
    }
  }
  expect(env.next_action).toBe("complete");
  spent += tokens({ scan_id }) + tokens(await engine.result({ scan_id }));
  if (process.env.SCAN_BUDGET_REPORT)
    console.log(`screened ${screened.length} (gap ${gapItems.length}), tokens ${spent}`);
  expect(new Set(screened).size).toBe(screened.length);
  return { asked, screened: screened.length, gap: gapItems.length, tokens: spent };
}

describe("the screening budget at standard, with the gap round", () => {
  const budget = screenBudgetOf("standard", 10);

  it("a model that writes 8 gap queries screens no more than the budget, and the scan stays within its tokens", async () => {
    const run = await scanWith(GAP_WORDS.map((text) => ({ text, criterion: "C2" })));
    expect(run.asked).toBe(true);
    // The gap round's papers were screened, inside the budget: it is not kept by skipping them.
    expect(run.gap).toBeGreaterThan(0);
    expect(run.screened).toBeLessThanOrEqual(budget);
    // The corpus holds more than the budget: the budget, not the corpus, ended screening.
    expect(run.screened).toBeGreaterThan(budget - BATCH_SIZE);
    expect(run.tokens).toBeLessThanOrEqual(PROFILES.standard.tokenBudget);
  }, 120_000);

  it("a model that skips the gap round ([]) screens the whole budget: the batch held for it is not lost", async () => {
    const run = await scanWith([]);
    expect(run.asked).toBe(true);
    expect(run.gap).toBe(0);
    expect(run.screened).toBe(budget);
  }, 120_000);

  it("a budget the first batch spends leaves a gap round no room: the model is not asked for queries it could not have screened", async () => {
    // max_candidates 20: the first batch (each of the six queries' page of 4) is cut at 20, the whole budget.
    const run = await scanWith(
      GAP_WORDS.map((text) => ({ text, criterion: "C2" })),
      { max_candidates: 20, force_gap_round: true },
    );
    expect(run.asked).toBe(false);
    expect(run.screened).toBe(20);
  }, 120_000);
});
