/**
 * The 25 tools pass resmon's coverage on as resmon said it: run_sweep's run, read by get_execution
 * and list_executions, for each category the stand-in plays (answered, genuine empty, non_answer,
 * unknown: zero with no reason, unknown: no outcome recorded).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type SourceMode, startTestkit, type Testkit } from "@resmon/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectInMemory, isError, parsed } from "./helpers/mcp.js";

type Row = Record<string, unknown>;
let kit: Testkit;
let dir: string;
let session: Awaited<ReturnType<typeof connectInMemory>>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "resmon-mcp-coverage-"));
  kit = await startTestkit({ stateDir: dir, seed: "small" });
  kit.setAdmission({ runDurationMs: 20 });
  session = await connectInMemory({ env: { RESMON_PORT_FILE: kit.portFile ?? "", RESMON_STATE_DIR: dir } });
});
afterAll(async () => {
  await session?.close();
  await kit?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function call(name: string, args: Row): Promise<Row> {
  const result = await session.client.callTool({ name, arguments: args });
  const body = parsed(result);
  if (isError(result)) throw new Error(`${name}: ${JSON.stringify(body)}`);
  return body;
}

async function finished(execId: unknown): Promise<Row> {
  for (let i = 0; i < 300; i++) {
    const run = await call("get_execution", { exec_id: execId });
    if (run.status !== "running") return run;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`execution ${String(execId)} never finished`);
}

const cases: [SourceMode, Row][] = [
  ["answer", { category: "answered", label: "answered" }],
  [
    "empty",
    { category: "answered", label: "answered, zero", genuine_empty: true, zero_reason: "answered_empty" },
  ],
  ["no_answer", { category: "non_answer", label: "did not answer", zero_reason: "upstream_failure" }],
  ["unrecorded", { category: "unknown", label: "zero, reason not recorded", zero_reason: null }],
  ["missing", { category: "unknown", label: "unknown / outcome not recorded", outcome_recorded: false }],
];

describe("run_sweep → get_execution → list_executions carry resmon's coverage as said", () => {
  it.each(cases)("%s", async (mode, want) => {
    kit.setSourceOutcome("arxiv", mode, { times: 1 });
    const started = await call("run_sweep", { query: "diffusion", sources: ["arxiv"] });
    expect(String(started.detail)).toContain("coverage");
    const run = await finished(started.execution_id);
    const coverage = run.coverage as Row;
    const [row] = coverage.sources as Row[];
    expect(row).toMatchObject({ source: "arxiv", ...want });
    // get_execution hands on the row whole: the backend's own coverage, unchanged.
    const raw = await (
      await fetch(`${kit.baseUrl}/api/executions/${String(started.execution_id)}`, {
        headers: { authorization: `Bearer ${kit.token}` },
      })
    ).json();
    expect(coverage).toEqual((raw as Row).coverage);
    expect(run.source_outcomes).toEqual((raw as Row).source_outcomes);
    const listed = ((await call("list_executions", { limit: 5 })).executions as Row[]).find(
      (e) => e.id === started.execution_id,
    );
    expect(listed?.coverage).toEqual({ counts: coverage.counts });
  });

  it("a run whose row carries no coverage is listed with coverage not_reported, never as answered", async () => {
    kit.setFault("/api/executions", {
      kind: "status",
      status: 200,
      body: [
        { id: 1, execution_type: "deep_sweep", status: "completed", start_time: "2026-01-01T00:00:00Z" },
      ],
    });
    try {
      const [row] = (await call("list_executions", {})).executions as Row[];
      expect(row).not.toHaveProperty("coverage");
      expect(row?.not_reported).toEqual(["coverage"]);
    } finally {
      kit.clearFaults();
    }
  });
});
