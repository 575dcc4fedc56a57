import { TOOL_NAMES, type ToolName, WRITE_TOOLS } from "@resmon/mcp-contract";
import type { Testkit } from "@resmon/testkit";
import fc from "fast-check";
import { argsFor, KIT_RUNTIME, refusedBeforeRequest } from "../args.js";
import { type GroupRun, kitFor, tempDir } from "../context.js";
import { callTool, describe } from "../outcome.js";
import { cleanEnv, connectClient } from "../proc.js";
import { GROUP_TITLES } from "../titles.js";

const GROUP = GROUP_TITLES["bad-input"];
const DEADLINE_MS = 20_000;

function substitute(args: Record<string, unknown>, runtimeId: string): Record<string, unknown> {
  return args.expected_runtime_id === KIT_RUNTIME ? { ...args, expected_runtime_id: runtimeId } : args;
}

function preview(args: unknown): string {
  const s = JSON.stringify(args) ?? "undefined";
  return s.length > 240 ? `${s.slice(0, 240)}…(${s.length} chars)` : s;
}

/**
 * ≥ 10,000 generated calls (at scale 1) through the real stdio server against the stand-in. Every
 * answer is the success shape or a contract envelope; a refusal the spec places before any request
 * sent none; no call hangs; the process is alive at the end.
 */
export async function badInput(run: GroupRun): Promise<void> {
  const { tally, opts } = run;
  const perTool = Math.max(4, Math.ceil((10_250 * opts.scale) / TOOL_NAMES.length));
  const dir = tempDir("bad");
  const kit = await kitFor({ stateDir: dir });
  kit.setAdmission({ runDurationMs: 200 });
  const { client, proc } = await connectClient(
    "bad-input",
    cleanEnv({ RESMON_PORT_FILE: kit.portFile ?? "", RESMON_STATE_DIR: dir, RESMON_MCP_TIMEOUT_MS: "10000" }),
  );
  await client.listTools();
  const samples = TOOL_NAMES.map((name, i) => ({
    name,
    cases: fc.sample(argsFor(name), { numRuns: perTool, seed: opts.seed + i }),
  }));
  const counts = { success: 0, refusedBefore: 0, otherErrors: 0, requestsSentByRefusals: 0 };
  const codes = new Map<string, number>();
  const started = Date.now();
  let done = 0;
  rounds: for (let round = 0; round < perTool; round++) {
    for (const { name, cases } of samples) {
      if (!proc.alive) {
        tally.record(
          GROUP,
          `server process exited after ${done} calls (${JSON.stringify(proc.exit)}); the rest not tried`,
        );
        break rounds;
      }
      const args = substitute(cases[round] as Record<string, unknown>, kit.runtimeId);
      const before = kit.requests.length;
      const refusal = refusedBeforeRequest(name as ToolName, args);
      const outcome = await callTool(client, name, args, DEADLINE_MS);
      const sent = kit.requests.length - before;
      let problem: string | null = null;
      if (outcome.kind === "bad") problem = outcome.why;
      else if (outcome.kind === "error") {
        codes.set(outcome.code, (codes.get(outcome.code) ?? 0) + 1);
        if (outcome.code === "internal_error") problem = "internal_error on generated input";
      } else counts.success++;
      if (problem === null && refusal !== null) {
        if (outcome.kind !== "error" || outcome.code !== "invalid_argument") {
          problem = `expected invalid_argument (${refusal}), got ${describe(outcome)}`;
        } else if (sent > 0) {
          counts.requestsSentByRefusals += sent;
          problem = `refused (${refusal}) but sent ${sent} request(s) first`;
        } else counts.refusedBefore++;
      } else if (problem === null && outcome.kind === "error") counts.otherErrors++;
      tally.record(GROUP, problem === null ? null : `${name} ${preview(args)}: ${problem}`);
      if (++done % 2000 === 0)
        opts.log(`  bad input: ${done} calls, ${Math.round((Date.now() - started) / 1000)} s`);
      if (kit.requests.length > 5000) kit.clearRequests();
    }
  }
  tally.record(GROUP, proc.alive ? null : "server process not alive after the generated calls");
  const found = proc.findings[0];
  tally.record(
    GROUP,
    found === undefined
      ? null
      : `${proc.findings.length} problem(s) in the bytes written, first on ${found.stream}: ${found.what} ${found.excerpt}`,
  );
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  tally.note(
    GROUP,
    `${done} generated calls (${perTool} per tool × ${TOOL_NAMES.length} tools, fast-check seed ${opts.seed}) in ${seconds} s: ` +
      `${counts.success} success shapes, ${counts.refusedBefore} refused before any request (0 requests sent), ` +
      `${counts.otherErrors} other contract errors; codes ${[...codes].map(([c, n]) => `${c} ${n}`).join(", ")}; ` +
      `server stdout ${(proc.stdoutBytes / 1e6).toFixed(1)} MB`,
  );
  await client.close();
  await readOnlyWrites(run, kit, dir);
  await kit.stop();
}

/** RESMON_MCP_READ_ONLY=1: every write, whatever its arguments, is refused read_only before anything reaches resmon. */
async function readOnlyWrites({ tally, opts }: GroupRun, kit: Testkit, dir: string): Promise<void> {
  const perWrite = Math.max(4, Math.round(60 * opts.scale));
  const { client } = await connectClient(
    "bad-input-read-only",
    cleanEnv({ RESMON_PORT_FILE: kit.portFile ?? "", RESMON_STATE_DIR: dir, RESMON_MCP_READ_ONLY: "1" }),
  );
  await client.listTools();
  const writes = WRITE_TOOLS;
  for (const [i, name] of writes.entries()) {
    for (const args of fc.sample(argsFor(name), { numRuns: perWrite, seed: opts.seed + 100 + i })) {
      const before = kit.requests.length;
      const got = await callTool(client, name, substitute(args, kit.runtimeId), DEADLINE_MS);
      const sent = kit.requests.length - before;
      let problem: string | null = null;
      if (got.kind !== "error" || got.code !== "invalid_argument" || got.body.detail === undefined) {
        problem = `expected invalid_argument (read_only), got ${describe(got)}`;
      } else if ((got.body.detail as Record<string, unknown>).read_only !== true)
        problem = "detail.read_only is not true";
      else if (sent > 0) problem = `sent ${sent} request(s) before refusing`;
      tally.record(GROUP, problem === null ? null : `read-only ${name} ${preview(args)}: ${problem}`);
    }
  }
  tally.note(
    GROUP,
    `read-only session: ${perWrite} generated calls to each of the ${writes.length} writes, each to be refused read_only with 0 requests sent`,
  );
  await client.close();
}
