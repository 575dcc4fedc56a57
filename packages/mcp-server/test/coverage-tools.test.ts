/**
 * The 25 tools pass resmon's coverage on as resmon said it: run_sweep's run, read by get_execution
 * and list_executions, for each category the stand-in plays (answered, genuine empty, non_answer,
 * unknown: zero with no reason, unknown: no outcome recorded). Against the stand-in as each resmon
 * it supports: 1.6 and 1.7 record no coverage at all, and the same calls say so (not_reported).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compareVersions, FEATURE_SINCE } from "@resmon/mcp-contract";
import { RELEASES, type SourceMode, startTestkit, type Testkit } from "@resmon/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectInMemory, isError, parsed } from "./helpers/mcp.js";

type Row = Record<string, unknown>;

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

describe.each(RELEASES.map((r) => r.line))("against the stand-in as resmon %s", (line) => {
  const records = compareVersions(line, FEATURE_SINCE.run_coverage) >= 0;
  let kit: Testkit;
  let dir: string;
  let session: Awaited<ReturnType<typeof connectInMemory>>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), `resmon-mcp-coverage-${line}-`));
    kit = await startTestkit({ stateDir: dir, seed: "small", as: line });
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

  // One or the other per release, never a skipped case: what each release records decides.
  if (records) {
    describe("run_sweep → get_execution → list_executions carry resmon's coverage as said", () => {
      it.each(cases)("%s", async (mode, want) => {
        kit.setSourceOutcome("arxiv", mode, { times: 1 });
        const started = await call("run_sweep", { query: "diffusion", sources: ["arxiv"] });
        expect(String(started.detail)).toContain("Its coverage says per source");
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

      it("a run whose row carries no coverage is upstream_error on a resmon that records it, never 'answered'", async () => {
        kit.setFault("/api/executions", {
          kind: "status",
          status: 200,
          body: [
            { id: 1, execution_type: "deep_sweep", status: "completed", start_time: "2026-01-01T00:00:00Z" },
          ],
        });
        try {
          const result = await session.client.callTool({ name: "list_executions", arguments: {} });
          expect(isError(result)).toBe(true);
          expect(parsed(result)).toMatchObject({
            error: "upstream_error",
            detail: { field: "executions.0.coverage" },
          });
        } finally {
          kit.clearFaults();
        }
      });
    });
  } else {
    describe("a resmon that records no coverage", () => {
      it.each(cases.map(([mode]) => mode))(
        "%s: run_sweep says a zero cannot be read; get_execution and list_executions name coverage not_reported",
        async (mode) => {
          kit.setSourceOutcome("arxiv", mode, { times: 1 });
          const started = await call("run_sweep", { query: "diffusion", sources: ["arxiv"] });
          expect(String(started.detail)).toContain(
            `resmon ${kit.release.version} records no per-source coverage`,
          );
          expect(String(started.detail)).not.toContain("Its coverage says");
          const run = await finished(started.execution_id);
          expect(run).not.toHaveProperty("coverage");
          expect(run).not.toHaveProperty("source_outcomes");
          expect(run.not_reported).toEqual(expect.arrayContaining(["coverage", "source_outcomes"]));
          const listed = ((await call("list_executions", { limit: 5 })).executions as Row[]).find(
            (e) => e.id === started.execution_id,
          );
          expect(listed).not.toHaveProperty("coverage");
          expect(listed?.not_reported).toEqual(["coverage"]);
        },
      );
    });
  }
});
