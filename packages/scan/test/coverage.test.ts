/**
 * Coverage is what resmon recorded, per sweep and per source, in every phase: a source is answered
 * only where resmon said so, a run without coverage is not_reported, and a first round that found
 * nothing with no source answering says so (retry_start with the way on) instead of going to ranking.
 */
import { readFileSync } from "node:fs";
import type { ApiResult, ResmonClient } from "@resmon/api-client";
import type { ScanEnvelope } from "@resmon/mcp-contract";
import type { SourceMode } from "@resmon/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Rig, rig } from "./helpers/backend.js";
import { driveToEnd } from "./helpers/model.js";
import { plainBackend } from "./helpers/plain-backend.js";
import { startArgs } from "./helpers/plan.js";

let r: Rig;
beforeEach(async () => {
  r = await rig();
});
afterEach(async () => r.close());

type Row = Record<string, unknown>;
const SOURCES = ["arxiv", "openalex"];

/** A client whose execution rows carry no coverage at all, as an older resmon's would. */
function withoutCoverage(client: ResmonClient): ResmonClient {
  return new Proxy(client, {
    get(target, key, receiver) {
      // The backend bounds each request with within(): the bounded client is stripped the same way.
      if (key === "within") return (ms: number) => withoutCoverage(target.within(ms));
      if (key !== "GET") return Reflect.get(target, key, receiver);
      // Any path, as the backend sends it: the client's own types name served paths one by one.
      const get = target.GET as unknown as (...args: unknown[]) => Promise<ApiResult<unknown>>;
      return async (...args: unknown[]) => {
        const res = await get(...args);
        if (args[0] === "/api/executions/{exec_id}" && res.ok) {
          const { coverage: _c, source_outcomes: _o, ...row } = res.data as Row;
          return { ...res, data: row };
        }
        return res;
      };
    },
  });
}

function markdown(env: ScanEnvelope): string {
  return readFileSync(String((env.payload.files as Row).md), "utf8");
}

/** The evidence.md coverage section, from "## Coverage" to the next top heading. */
function coverageSection(md: string): string {
  return md.slice(md.indexOf("## Coverage"), md.indexOf("## Removed retractions"));
}

/** Each envelope once a sweep has finished carries the same readable coverage_risk count. */
function expectRiskEverywhere(seen: ScanEnvelope[], risk: number): void {
  const after = seen.filter((e) => e.phase !== "retrieve" || e.next_action === "retry_start");
  expect(after.length).toBeGreaterThan(0);
  for (const e of after) expect(e.progress.coverage_risk).toBe(risk);
  if (risk > 0) for (const e of after) expect(e.progress.coverage_note).toEqual(expect.any(String));
}

const cases: {
  name: string;
  modes: [string, SourceMode][];
  risk: number;
  named: RegExp[];
  /** Run a gap round too (one more sweep), so the gap phase's payload is held as well. */
  gap?: boolean;
}[] = [
  { name: "answered", modes: [], risk: 0, named: [] },
  {
    name: "non_answer",
    modes: [["arxiv", "no_answer"]],
    risk: 1,
    named: [
      /- arxiv: did not answer in 7 of 7 sweeps \(answered in 0\)/,
      /"did not answer"/,
      /"upstream_failure"/,
    ],
    gap: true,
  },
  {
    name: "unknown (zero, reason not recorded)",
    modes: [["openalex", "unrecorded"]],
    risk: 1,
    named: [
      /- openalex: unknown in 6 of 6 sweeps/,
      /"zero, reason not recorded"/,
      /zero_reason: none recorded/,
    ],
  },
  {
    name: "unknown (no outcome recorded)",
    modes: [["arxiv", "missing"]],
    risk: 1,
    named: [/- arxiv: unknown in 6 of 6 sweeps/, /"unknown \/ outcome not recorded"/],
  },
];

describe("a whole scan ends with evidence naming every source resmon did not record as answering", () => {
  for (const c of cases) {
    it(`${c.name}: progress in every phase, scan_result and evidence.md say what resmon recorded`, async () => {
      for (const [source, mode] of c.modes) r.kit.setSourceOutcome(source, mode);
      const engine = r.engine();
      const args = startArgs({ sources: SOURCES, ...(c.gap ? { force_gap_round: true } : {}) });
      const seen = await driveToEnd(engine, await engine.start(args));
      const end = seen.at(-1) as ScanEnvelope;
      expect(end.next_action).toBe("complete");
      if (c.gap) {
        const gap = seen.find((e) => e.next_action === "write_gap_queries") as ScanEnvelope;
        const silent = (gap.payload.coverage as Row).silent_sources as Row[];
        expect(silent.map((s) => [s.source, s.non_answer])).toEqual([["arxiv", 6]]);
      }
      for (const phase of ["screen", "rank", "complete"]) expect(seen.map((e) => e.phase)).toContain(phase);
      expectRiskEverywhere(seen, c.risk);
      const summary = end.payload.coverage as Row;
      expect(summary.every_source_answered).toBe(c.risk === 0);
      expect((summary.silent_sources as Row[]).map((s) => s.source)).toEqual(
        c.modes.map(([source]) => source),
      );
      const section = coverageSection(markdown(end));
      for (const want of c.named) expect(section).toMatch(want);
      if (c.risk === 0) expect(section).toContain("Every source answered every sweep, by resmon's record.");
      else expect(section).not.toContain("Every source answered");
    });
  }

  it("not_reported: a resmon whose runs carry no coverage is never read as answered", async () => {
    const engine = r.engine({ backend: plainBackend(async () => withoutCoverage(await r.connect())) });
    const seen = await driveToEnd(engine, await engine.start(startArgs({ sources: SOURCES })));
    const end = seen.at(-1) as ScanEnvelope;
    expectRiskEverywhere(seen, 2);
    const sources = (end.payload.coverage as Row).sources as Row[];
    expect(sources.map((s) => [s.source, s.answered, s.not_reported])).toEqual([
      ["arxiv", 0, 6],
      ["openalex", 0, 6],
    ]);
    const section = coverageSection(markdown(end));
    expect(section).toMatch(/- arxiv: not reported in 6 of 6 sweeps/);
    expect(section).toContain("coverage not_reported");
    expect(section).not.toContain("Every source answered");
  });

  it("genuine_empty: every source answered with nothing; the scan completes saying it found nothing, and why", async () => {
    r.kit.setSourceOutcome("*", "empty");
    const engine = r.engine();
    const seen = await driveToEnd(engine, await engine.start(startArgs({ sources: SOURCES })));
    const verify = seen.find((e) => e.next_action === "verify_ranked") as ScanEnvelope;
    // Every source answered, and every answer was empty: said as both, never as "answered" alone.
    expect(String(verify.payload.found_nothing)).toBe(
      "This scan found nothing: every one of its 6 retrievals returned 0 papers. Every source answered every sweep, by resmon's record, and every sweep returned 0 papers: the sources answered that they have none, which is not a silent source.",
    );
    const end = seen.at(-1) as ScanEnvelope;
    expect(Object.keys(end.payload)[0]).toBe("found_nothing");
    expectRiskEverywhere(seen, 0);
    const md = markdown(end);
    expect(md.split("\n")[0]).toMatch(/— found nothing$/);
    expect(md.split("\n")[2]).toMatch(/^This scan found nothing: /);
    expect(coverageSection(md)).toContain("| arxiv | 6 | 6 | 6 | 0 | 0 | 0 |");
  });
});

describe("a first round that found nothing, with no source answering", () => {
  async function nothingFound(): Promise<{ seen: ScanEnvelope[]; args: ReturnType<typeof startArgs> }> {
    r.kit.setSourceOutcome("*", "unrecorded");
    const engine = r.engine();
    const args = startArgs({ sources: SOURCES });
    const seen = [await engine.start(args)];
    while ((seen.at(-1) as ScanEnvelope).next_action === "await_retrieval") {
      seen.push(await engine.continue({ scan_id: args.scan_id }));
    }
    return { seen, args };
  }

  it("is not passed on to ranking: retry_start with the sources that did not answer and the options", async () => {
    const { seen, args } = await nothingFound();
    const env = seen.at(-1) as ScanEnvelope;
    expect(env).toMatchObject({ phase: "retrieve", next_action: "retry_start" });
    expect(String(env.payload.found_nothing)).toMatch(
      /^This scan found nothing: every sweep returned 0 papers/,
    );
    expect((env.payload.sources_not_answered as Row[]).map((s) => [s.source, s.unknown, s.labels])).toEqual([
      ["arxiv", 6, ["zero, reason not recorded"]],
      ["openalex", 6, ["zero, reason not recorded"]],
    ]);
    expect((env.payload.options as Row[]).map((o) => [o.option, o.tool, o.needs_person])).toEqual([
      ["retry", "scan_start", false],
      ["close", "scan_verify", false],
      ["other_sources", "scan_start", true],
      ["corpus", "scan_start", true],
      ["later", "scan_start", true],
    ]);
    // The retry on offer says how often, how long it waits, and why it may not help here.
    expect(env.payload.retry).toEqual({
      retries_left: 1,
      of: 1,
      wait_s: 0,
      why: "resmon did not record why arxiv, openalex returned nothing; a retry helps only if that cause has passed.",
    });
    expect(env.progress.coverage_risk).toBe(2);
    // A poll and scan_result say the same, and never reach screening.
    const engine = r.engine();
    expect((await engine.continue({ scan_id: args.scan_id })).next_action).toBe("retry_start");
    expect((await engine.result({ scan_id: args.scan_id })).next_action).toBe("retry_start");
  });

  it("the same scan_start again sends the round's sweeps again, and goes on once the sources answer", async () => {
    const { args } = await nothingFound();
    const before = r.sweepPosts();
    r.kit.setSourceOutcome("*", null);
    const engine = r.engine();
    const seen = [await engine.start(args)];
    while ((seen.at(-1) as ScanEnvelope).next_action === "await_retrieval") {
      seen.push(await engine.continue({ scan_id: args.scan_id }));
    }
    expect(r.sweepPosts() - before).toBe(6);
    expect((seen.at(-1) as ScanEnvelope).next_action).toBe("screen_candidates");
    expect((seen.at(-1) as ScanEnvelope).progress.coverage_risk).toBe(0);
  });

  it("found nothing again on its one retry: choose_option, and nothing is sent again however often scan_start comes", async () => {
    const { args } = await nothingFound();
    const engine = r.engine();
    let env = await engine.start(args);
    while (env.next_action === "await_retrieval") env = await engine.continue({ scan_id: args.scan_id });
    expect(r.sweepPosts()).toBe(12);
    expect(env).toMatchObject({ phase: "retrieve", next_action: "choose_option" });
    expect(String(env.payload.stopped)).toMatch(
      /^This scan stopped: the first round's sweeps were sent twice \(once and one retry\) and every one returned 0 papers/,
    );
    expect((env.payload.options as Row[]).map((o) => o.option)).toEqual([
      "close",
      "other_sources",
      "corpus",
      "later",
    ]);
    expect((env.payload.options as Row[])[0]).toMatchObject({
      tool: "scan_verify",
      arguments: { scan_id: args.scan_id },
    });
    for (const again of [await engine.start(args), await engine.continue({ scan_id: args.scan_id })])
      expect(again.next_action).toBe("choose_option");
    expect((await engine.result({ scan_id: args.scan_id })).next_action).toBe("choose_option");
    expect(r.sweepPosts()).toBe(12);
    const closed = await engine.verify({ scan_id: args.scan_id });
    expect(closed.next_action).toBe("complete");
    expect(String(closed.payload.found_nothing)).toMatch(
      /^This scan found nothing: every one of its 6 retrievals returned 0 papers\. Sources resmon did not record as answering/,
    );
  });

  it("the retry waits its time: sent no sooner than retry.wait_s after it was asked for, and says when", async () => {
    const { args } = await nothingFound();
    const engine = r.engine({ retryWaitMs: 1_500, waitMs: 200 });
    const before = r.sweepPosts();
    const asked = Date.now();
    const first = await engine.start(args);
    expect(first.next_action).toBe("await_retrieval");
    expect(first.payload.retry).toMatchObject({ attempt: 1, of: 1 });
    expect(Date.parse(String((first.payload.retry as Row).sends_at))).toBeGreaterThanOrEqual(asked + 1_400);
    expect(String(first.payload.note)).toMatch(/^The round's retrievals are sent again at /);
    expect(r.sweepPosts()).toBe(before);
    let env = first;
    while (env.next_action === "await_retrieval") env = await engine.continue({ scan_id: args.scan_id });
    expect(Date.now() - asked).toBeGreaterThanOrEqual(1_400);
    expect(r.sweepPosts() - before).toBe(6);
  });

  it("scan_verify closes it with evidence that names every source and says it found nothing first", async () => {
    const { seen, args } = await nothingFound();
    const end = await r.engine().verify({ scan_id: args.scan_id });
    seen.push(end);
    expect(end).toMatchObject({ phase: "complete", next_action: "complete" });
    expect(Object.keys(end.payload)[0]).toBe("found_nothing");
    const md = markdown(end);
    expect(md.split("\n")[0]).toMatch(/— found nothing$/);
    const section = coverageSection(md);
    for (const source of SOURCES)
      expect(section).toContain(`- ${source}: unknown in 6 of 6 sweeps (answered in 0)`);
    expect(section).not.toContain("Every source answered");
  });
});
