import type { Client } from "@modelcontextprotocol/client";
import { SETTINGS_KEYS_WITHHELD } from "@resmon/mcp-contract";
import type { Testkit } from "@resmon/testkit";
import fc from "fast-check";
import { credentialShapedKey } from "../args.js";
import { CANARIES, CANARY_ALIAS, CANARY_VALUES } from "../canaries.js";
import { type GroupRun, kitFor, tempDir } from "../context.js";
import { callTool, describe } from "../outcome.js";
import { ALL_PROCESSES, cleanEnv, connectClient } from "../proc.js";
import { GROUP_TITLES } from "../titles.js";

const GROUP = GROUP_TITLES.secrets;

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

async function realBody(kit: Testkit, path: string): Promise<unknown> {
  const res = await fetch(`${kit.baseUrl}${path}`, { headers: { authorization: `Bearer ${kit.token}` } });
  return res.json();
}

function textOf(got: Awaited<ReturnType<typeof callTool>>): string {
  return got.kind === "bad" ? "" : JSON.stringify(got.body);
}

async function refusedBeforeRequest(
  client: Client,
  kit: Testkit,
  settings: Record<string, unknown>,
  refused: string,
): Promise<string | null> {
  const group = "ai";
  const before = kit.requests.length;
  const got = await callTool(client, "update_settings", { group, settings }, 10_000);
  const sent = kit.requests.length - before;
  if (got.kind !== "error" || got.code !== "invalid_argument")
    return `expected invalid_argument, got ${describe(got)}`;
  if ((got.body.detail as Record<string, unknown>).refused !== refused)
    return `detail.refused is not ${refused}`;
  if (sent > 0) return `sent ${sent} request(s) before refusing`;
  const leaked = CANARIES.foundIn(textOf(got));
  return leaked.length > 0 ? `the answer echoes ${leaked.join(", ")}` : null;
}

/**
 * update_settings refuses credential-shaped names (generated) and the 19 withheld names before any
 * request, without echoing a planted value; backend answers poisoned with credential fields and
 * canary values never surface; and, last, every byte every server process of the whole run wrote is
 * free of every token the stand-ins minted, every canary, and stack traces.
 */
export async function secrets({ tally, opts }: GroupRun): Promise<void> {
  const dir = tempDir("secrets");
  const kit = await kitFor({ stateDir: dir });
  const { client } = await connectClient(
    "secrets",
    cleanEnv({ RESMON_PORT_FILE: kit.portFile ?? "", RESMON_STATE_DIR: dir }),
  );
  await client.listTools();

  const n = Math.max(20, Math.round(300 * opts.scale));
  const keySets = fc.sample(
    fc.tuple(
      fc.uniqueArray(credentialShapedKey, { minLength: 1, maxLength: 3 }),
      fc.subarray(["ai_model", "ai_temperature", "ai_effort"]),
    ),
    { numRuns: n, seed: opts.seed },
  );
  for (const [credentialKeys, writable] of keySets) {
    const settings: Record<string, string> = {};
    for (const k of writable) settings[k] = "claude-sonnet-4-5";
    credentialKeys.forEach((k, i) => {
      settings[k] = CANARY_VALUES[i % CANARY_VALUES.length] as string;
    });
    const problem = await refusedBeforeRequest(client, kit, settings, "credential");
    tally.record(
      GROUP,
      problem === null ? null : `credential-shaped ${JSON.stringify(Object.keys(settings))}: ${problem}`,
    );
  }
  for (const key of Object.keys(SETTINGS_KEYS_WITHHELD)) {
    const problem = await refusedBeforeRequest(client, kit, { [key]: "x" }, "withheld");
    tally.record(GROUP, problem === null ? null : `withheld ${key}: ${problem}`);
  }

  const poisonedOutcomes = new Map<string, number>();
  for (const p of POISONED) {
    const body = poison(await realBody(kit, p.path));
    kit.setFault(p.route, { kind: "status", status: 200, body }, p.method ? { method: p.method } : {});
    const got = await callTool(client, p.tool, p.args, 10_000);
    kit.clearFaults();
    const leaked = CANARIES.foundIn(textOf(got));
    poisonedOutcomes.set(
      describe(got).split(":")[0] ?? "",
      (poisonedOutcomes.get(describe(got).split(":")[0] ?? "") ?? 0) + 1,
    );
    let problem: string | null = null;
    if (got.kind === "bad") problem = describe(got);
    else if (leaked.length > 0) problem = `answer carries ${leaked.join(", ")}`;
    tally.record(GROUP, problem === null ? null : `poisoned ${p.route} → ${p.tool}: ${problem}`);
  }
  await client.close();
  await kit.stop();

  // Every byte of every server process this run started.
  let bytes = 0;
  for (const proc of ALL_PROCESSES) {
    if (proc.alive) await proc.stop(3000);
    proc.flush();
    bytes += proc.stdoutBytes + Buffer.byteLength(proc.stderr);
    const f = proc.findings[0];
    tally.record(
      GROUP,
      f === undefined
        ? null
        : `server process '${proc.label}' wrote ${proc.findings.length} bad thing(s) to ${f.stream}, first: ${f.what} ${f.excerpt}`,
    );
  }
  tally.note(
    GROUP,
    `${n} generated credential-shaped settings sets and ${Object.keys(SETTINGS_KEYS_WITHHELD).length} withheld keys refused before any request; ` +
      `${POISONED.length} backend answers poisoned with credential fields (answered: ${[...poisonedOutcomes].map(([k, v]) => `${k} ${v}`).join(", ")}); ${ALL_PROCESSES.length} server processes, ` +
      `${(bytes / 1e6).toFixed(1)} MB written in all, checked for ${CANARIES.size} canaries (every stand-in token of the run plus planted values and an alias), stack frames and non-frame stdout`,
  );
}
