/**
 * Bad input: generated calls (410 per tool at scale 1) through the real stdio server against the
 * stand-in. Every answer is the success shape or a contract envelope (never internal_error); a
 * refusal the spec places before any request sent none; no call hangs; nothing bad is written.
 */

import { existsSync } from "node:fs";
import type { Client } from "@modelcontextprotocol/client";
import { TOOL_NAMES, type ToolName, WRITE_TOOLS } from "@resmon/mcp-contract";
import { serverEnv, type Testkit } from "@resmon/testkit";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { argsFor, KIT_RUNTIME, refusedBeforeRequest } from "../../src/reliability/args.js";
import { kitFor, tempDir } from "../../src/reliability/context.js";
import { accountForEveryByte } from "../../src/reliability/lifecycle.js";
import { callTool, describe as describeOutcome } from "../../src/reliability/outcome.js";
import { connectClient, newFindings, SERVER_CLI, type ServerProcess } from "../../src/reliability/proc.js";
import { holds, note } from "../../src/reliability/record.js";
import { SCALE, SEED, scaled, testTimeout } from "../../src/reliability/scale.js";

const DEADLINE_MS = 20_000;
const PER_TOOL = scaled(410, 4);
const PER_WRITE = scaled(60, 4);

function substitute(args: Record<string, unknown>, runtimeId: string): Record<string, unknown> {
  return args.expected_runtime_id === KIT_RUNTIME ? { ...args, expected_runtime_id: runtimeId } : args;
}

let kit: Testkit;

/** Why one generated call broke a guarantee, or null. */
async function problemWith(
  client: Client,
  proc: ServerProcess,
  name: ToolName,
  generated: Record<string, unknown>,
  readOnly: boolean,
): Promise<string | null> {
  if (!proc.alive) return `the server process has exited (${JSON.stringify(proc.exit)})`;
  const args = substitute(generated, kit.runtimeId);
  const refusal = readOnly ? "read_only" : refusedBeforeRequest(name, args);
  const requestsBefore = kit.requests.length;
  const findingsBefore = proc.findings.length;
  const got = await callTool(client, name, args, DEADLINE_MS);
  const sent = kit.requests.length - requestsBefore;
  if (kit.requests.length > 5000) kit.clearRequests();
  const written = newFindings(proc, findingsBefore);
  if (written !== null) return written;
  if (got.kind === "bad") return got.why;
  if (got.kind === "error" && got.code === "internal_error") return "internal_error on generated input";
  if (refusal === null) return null;
  if (got.kind !== "error" || got.code !== "invalid_argument")
    return `expected invalid_argument (${refusal}), got ${describeOutcome(got)}`;
  if (readOnly && (got.body.detail as Record<string, unknown>).read_only !== true)
    return "detail.read_only is not true";
  return sent > 0 ? `refused (${refusal}) but sent ${sent} request(s) first` : null;
}

describe.skipIf(!existsSync(SERVER_CLI))(`bad input (scale ${SCALE}, seed ${SEED})`, () => {
  let dir: string;
  beforeAll(async () => {
    dir = tempDir("bad");
    kit = await kitFor({ stateDir: dir });
    kit.setAdmission({ runDurationMs: 200 });
  });
  afterAll(async () => kit.stop());

  describe("generated calls to every tool", () => {
    let client: Client;
    let proc: ServerProcess;
    beforeAll(async () => {
      ({ client, proc } = await connectClient(
        "bad-input",
        serverEnv(kit, { RESMON_MCP_TIMEOUT_MS: "10000" }),
      ));
      await client.listTools();
    }, 30_000);
    afterAll(async () => client.close());

    it.for(TOOL_NAMES.map((name, i) => [name, i] as const))(
      "%s: success shape or contract error, refusals before any request",
      { timeout: testTimeout(60_000) },
      async ([name, i], ctx) => {
        await holds(
          ctx,
          fc.asyncProperty(argsFor(name), async (args) => {
            const problem = await problemWith(client, proc, name, args, false);
            expect(problem).toBeNull();
          }),
          { numRuns: PER_TOOL, seed: SEED + i },
        );
      },
    );

    it("the server process is alive after every generated call", (ctx) => {
      note(ctx, `${PER_TOOL} generated calls per tool × every tool of the table, one server process`);
      expect(proc.alive).toBe(true);
    });
  });

  describe("RESMON_MCP_READ_ONLY=1", () => {
    let client: Client;
    let proc: ServerProcess;
    beforeAll(async () => {
      ({ client, proc } = await connectClient(
        "bad-input-read-only",
        serverEnv(kit, { RESMON_MCP_READ_ONLY: "1" }),
      ));
      await client.listTools();
    }, 30_000);
    afterAll(async () => client.close());

    it.for(WRITE_TOOLS.map((name, i) => [name, i] as const))(
      "%s: every generated call refused read_only with no request sent",
      { timeout: testTimeout(20_000) },
      async ([name, i], ctx) => {
        await holds(
          ctx,
          fc.asyncProperty(argsFor(name), async (args) => {
            expect(await problemWith(client, proc, name, args, true)).toBeNull();
          }),
          { numRuns: PER_WRITE, seed: SEED + 100 + i },
        );
      },
    );
  });

  accountForEveryByte();
});
