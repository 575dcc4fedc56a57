/**
 * Secrets: update_settings refuses credential-shaped names (generated) and the withheld names
 * before any request, without echoing a planted value; backend answers poisoned with credential
 * fields and canary values never surface; and every byte the group's server processes wrote is
 * free of every token the stand-ins minted, every canary, and stack traces (as in every group).
 */
import { existsSync } from "node:fs";
import type { Client } from "@modelcontextprotocol/client";
import { SETTINGS_KEYS_WITHHELD } from "@resmon/mcp-contract";
import { serverEnv, type Testkit } from "@resmon/testkit";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { credentialShapedKey } from "../../src/reliability/args.js";
import { CANARIES, CANARY_ALIAS, CANARY_VALUES } from "../../src/reliability/canaries.js";
import { kitFor, tempDir } from "../../src/reliability/context.js";
import { accountForEveryByte } from "../../src/reliability/lifecycle.js";
import { callTool, describe as describeOutcome, type Outcome } from "../../src/reliability/outcome.js";
import { connectClient, probed, SERVER_CLI, type ServerProcess } from "../../src/reliability/proc.js";
import { holds } from "../../src/reliability/record.js";
import { SEED, scaled, testTimeout } from "../../src/reliability/scale.js";

const [V0, V1, V2] = CANARY_VALUES as [string, string, string];

/** Plant credential-shaped fields with canary values in every object of a backend answer (3 levels deep). */
function poison(value: unknown, depth = 0): unknown {
  if (depth > 3) return value;
  if (Array.isArray(value)) return value.map((v) => poison(v, depth + 1));
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = poison(v, depth + 1);
    out.api_key = V0;
    out.openai_api_key = V1;
    out.token = V2;
    out[CANARY_ALIAS] = { present: true, status: "present", value: V0 };
    return out;
  }
  return value;
}

/** Backend answers to poison, and the tool that reads each. */
const POISONED: {
  route: string;
  path: string;
  tool: string;
  args: Record<string, unknown>;
  method?: string;
}[] = [
  { route: "/api/credentials", path: "/api/credentials", tool: "list_sources", args: {} },
  { route: "/api/repositories/catalog", path: "/api/repositories/catalog", tool: "list_sources", args: {} },
  { route: "/api/health", path: "/api/health", tool: "health", args: {} },
  { route: "/api/routines", path: "/api/routines", tool: "list_routines", args: {} },
  {
    route: "/api/routines/{routine_id}",
    path: "/api/routines/1",
    tool: "get_routine",
    args: { routine_id: 1 },
  },
  {
    route: "/api/executions/{exec_id}",
    path: "/api/executions/1",
    tool: "get_execution",
    args: { exec_id: 1 },
  },
  {
    route: "/api/executions/{exec_id}/search-record",
    path: "/api/executions/1/search-record",
    tool: "get_search_record",
    args: { exec_id: 1 },
  },
  {
    route: "/api/profiles/{profile_id}",
    path: "/api/profiles/1",
    tool: "get_watch_profile",
    args: { profile_id: 1 },
  },
  {
    route: "/api/settings/ai",
    path: "/api/settings/ai",
    method: "GET",
    tool: "update_settings",
    args: { group: "ai", settings: { ai_model: "claude-sonnet-4-5" } },
  },
  {
    route: "/api/settings/embeddings",
    path: "/api/settings/embeddings",
    method: "GET",
    tool: "update_settings",
    args: { group: "embeddings", settings: { embedding_model: "all-MiniLM-L6-v2" } },
  },
];

const textOf = (got: Outcome) => (got.kind === "bad" ? "" : JSON.stringify(got.body));

describe.skipIf(!existsSync(SERVER_CLI))("secrets", () => {
  let kit: Testkit;
  let client: Client;
  beforeAll(async () => {
    kit = await kitFor({ stateDir: tempDir("secrets") });
    let proc: ServerProcess;
    ({ client, proc } = await connectClient("secrets", serverEnv(kit)));
    await client.listTools();
    await probed(proc); // its request is not one a refused call sent
  }, 30_000);
  afterAll(async () => {
    await client?.close();
    await kit?.stop();
  });

  /** update_settings refuses these settings `refused` (credential or withheld), sends nothing, echoes no canary. */
  async function expectRefused(settings: Record<string, unknown>, refused: string): Promise<void> {
    const before = kit.requests.length;
    const got = await callTool(client, "update_settings", { group: "ai", settings }, 10_000);
    expect(got.kind === "error" && got.code === "invalid_argument", describeOutcome(got)).toBe(true);
    expect(got.kind === "error" && (got.body.detail as Record<string, unknown>).refused).toBe(refused);
    expect(kit.requests.length - before, "requests sent before refusing").toBe(0);
    expect(CANARIES.foundIn(textOf(got)), "canaries the answer echoes").toEqual([]);
  }

  it(
    "generated credential-shaped settings names (with canary values) are refused before any request",
    async (ctx) => {
      await holds(
        ctx,
        fc.asyncProperty(
          fc.uniqueArray(credentialShapedKey, { minLength: 1, maxLength: 3 }),
          fc.subarray(["ai_model", "ai_temperature", "ai_effort"]),
          async (credentialKeys, writable) => {
            const settings: Record<string, string> = {};
            for (const k of writable) settings[k] = "claude-sonnet-4-5";
            credentialKeys.forEach((k, i) => {
              settings[k] = CANARY_VALUES[i % CANARY_VALUES.length] as string;
            });
            await expectRefused(settings, "credential");
          },
        ),
        { numRuns: scaled(300, 20), seed: SEED },
      );
    },
    testTimeout(30_000),
  );

  it.for(Object.keys(SETTINGS_KEYS_WITHHELD))("withheld %s is refused before any request", (key) =>
    expectRefused({ [key]: "x" }, "withheld"),
  );

  it.for(POISONED.map((p) => [`${p.route} → ${p.tool}`, p] as const))(
    "poisoned %s: no canary in the answer",
    async ([, p]) => {
      const res = await fetch(`${kit.baseUrl}${p.path}`, {
        headers: { authorization: `Bearer ${kit.token}` },
      });
      const body = poison(await res.json());
      kit.setFault(p.route, { kind: "status", status: 200, body }, p.method ? { method: p.method } : {});
      try {
        const got = await callTool(client, p.tool, p.args, 10_000);
        expect(got.kind, describeOutcome(got)).not.toBe("bad");
        expect(CANARIES.foundIn(textOf(got))).toEqual([]);
      } finally {
        kit.clearFaults();
      }
    },
  );

  accountForEveryByte();
});
