/**
 * The stand-in plays resmon's coverage: per source and per run, a source answers, answers empty,
 * does not answer (recorded), ends with its reason unrecorded, or has no recorded outcome, and the
 * run's coverage and source_outcomes say it in resmon's own words (held against the real samples).
 */
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { applyControl, type Testkit } from "../src/index.js";
import { arr, call, obj, sleep, startKit } from "./helpers.js";

let kit: Testkit;
let done: () => Promise<void>;
beforeEach(async () => {
  ({ kit, done } = await startKit());
  kit.setAdmission({ runDurationMs: 20 });
});
afterEach(async () => done());

type Row = Record<string, unknown>;

async function finishedSweep(repositories: string[], query = "graph"): Promise<Row> {
  const id = obj((await call(kit, "POST", "/api/search/sweep", { query, repositories })).json).execution_id;
  for (let i = 0; i < 300; i++) {
    const e = obj((await call(kit, "GET", `/api/executions/${String(id)}`)).json);
    if (e.status !== "running") return e;
    await sleep(10);
  }
  throw new Error(`execution ${String(id)} never finished`);
}

const sourcesOf = (e: Row) => arr(obj(e.coverage).sources).map(obj);
const only = (e: Row) => sourcesOf(e)[0] as Row;
const KEYS = ["category", "label", "note", "outcome_recorded", "status", "result_count", "zero_reason"];
const pick = (row: Row) => Object.fromEntries(KEYS.map((k) => [k, row[k]]));

const SAMPLES = resolve(import.meta.dirname, "../../../../shared/resmon/samples");
/** The real backend's answers (../shared beside the checkout); the comparisons skip when that folder is absent. */
const HAVE_SAMPLES = existsSync(SAMPLES);
function sample(name: string): Row {
  return obj(obj(JSON.parse(readFileSync(resolve(SAMPLES, name), "utf8")).response).body);
}

describe("per-source coverage modes", () => {
  it.skipIf(!HAVE_SAMPLES)(
    "unrecorded: the run completes with resmon's 'zero, reason not recorded', exactly as the real backend said it",
    async () => {
      kit.setSourceOutcome("arxiv", "unrecorded");
      const e = await finishedSweep(["arxiv"]);
      const real = sample("GET__api_executions_{exec_id}.after-sweep-final.json");
      expect(e.status).toBe("completed");
      expect(e.result_count).toBe(0);
      expect(pick(only(e))).toEqual(pick(only(real)));
      expect(obj(e.coverage).summary).toBe(obj(real.coverage).summary);
      expect(obj(obj(e.coverage).counts)).toMatchObject(obj(obj(real.coverage).counts));
      expect(obj(e.source_outcomes)).toMatchObject(obj(real.source_outcomes));
    },
  );

  it("no_answer: a recorded non-answer (upstream_failure) with resmon's sentence; the run still completes", async () => {
    kit.setSourceOutcome("arxiv", "no_answer");
    const e = await finishedSweep(["arxiv", "openalex"]);
    expect(e.status).toBe("completed");
    const [arxiv, openalex] = sourcesOf(e);
    expect(arxiv).toMatchObject({
      source: "arxiv",
      category: "non_answer",
      label: "did not answer",
      zero_reason: "upstream_failure",
      note: "arxiv could not be queried: HTTP 503 after 3 attempts. This is not a zero — the source did not answer.",
    });
    expect(openalex).toMatchObject({ source: "openalex", category: "answered" });
    expect(obj(obj(e.coverage).counts)).toMatchObject({ answered: 1, non_answer: 1, unknown: 0 });
  });

  it("empty: an answered zero (genuine_empty), counted as answered", async () => {
    kit.setSourceOutcome("arxiv", "empty");
    const e = await finishedSweep(["arxiv"]);
    expect(only(e)).toMatchObject({
      category: "answered",
      label: "answered, zero",
      zero_reason: "answered_empty",
      genuine_empty: true,
      result_count: 0,
    });
    expect(obj(obj(e.coverage).counts)).toMatchObject({ answered: 1, genuine_empty: 1 });
  });

  it.skipIf(!HAVE_SAMPLES)(
    "missing: no outcome recorded at all, unknown, 'outcome not recorded'",
    async () => {
      kit.setSourceOutcome("arxiv", "missing");
      const e = await finishedSweep(["arxiv"]);
      const running = sample("GET__api_executions_{exec_id}.after-sweep-5s.json");
      expect(pick(only(e))).toEqual(pick(only(running)));
    },
  );

  it("answer (the default): a query that matches nothing is an answered zero, never an unknown", async () => {
    const e = await finishedSweep(["arxiv"], "zzznothingmatcheszzz");
    expect(only(e)).toMatchObject({
      category: "answered",
      zero_reason: "answered_empty",
      genuine_empty: true,
    });
  });

  it("per run: times spends one use per run; a source's own rule wins over '*'", async () => {
    kit.setSourceOutcome("*", "unrecorded", { times: 2 });
    kit.setSourceOutcome("openalex", "answer");
    const first = await finishedSweep(["arxiv", "openalex"]);
    expect(sourcesOf(first).map((s) => s.category)).toEqual(["unknown", "answered"]);
    await finishedSweep(["arxiv"]);
    const third = await finishedSweep(["arxiv"]);
    expect(only(third).category).toBe("answered");
  });

  it("the list passes the same coverage as the row", async () => {
    kit.setSourceOutcome("arxiv", "no_answer", { times: 1 });
    const e = await finishedSweep(["arxiv"]);
    const listed = arr((await call(kit, "GET", "/api/executions?limit=5")).json)
      .map(obj)
      .find((r) => r.id === e.id) as Row;
    expect(listed.coverage).toEqual(e.coverage);
    expect(listed.source_outcomes).toEqual(e.source_outcomes);
  });
});

describe("the source-outcome control line (serve's stdin)", () => {
  it("sets, counts and switches off a mode; refuses what it cannot read", async () => {
    expect(await applyControl(kit, "source-outcome arxiv unrecorded 1")).toEqual({
      control: "source-outcome",
      ok: true,
      source: "arxiv",
      mode: "unrecorded",
      times: 1,
    });
    expect(only(await finishedSweep(["arxiv"])).category).toBe("unknown");
    expect(only(await finishedSweep(["arxiv"])).category).toBe("answered");
    await applyControl(kit, "source-outcome * no_answer");
    expect(only(await finishedSweep(["arxiv"])).category).toBe("non_answer");
    await applyControl(kit, "source-outcome * off");
    expect(only(await finishedSweep(["arxiv"])).category).toBe("answered");
    for (const bad of ["source-outcome", "source-outcome arxiv maybe", "source-outcome arxiv empty 0"]) {
      expect(await applyControl(kit, bad)).toMatchObject({ ok: false, error: expect.any(String) });
    }
  });
});
