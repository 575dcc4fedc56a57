/**
 * The token cost of the surface against the testkit's demo data: tools/list, each tool's
 * default-page answer, every paginated tool at its largest allowed limit, and the largest
 * whole-record and export answers the demo data holds. Shared by `pnpm bench` and the
 * token-budget test, so both measure the same thing. The calls and their budgets are the rows'
 * own (`example`, `budget` in the contract's table).
 */
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { MAX_LIMIT, TOOL_BY_NAME, TOOLS, type ToolName } from "@resmon/mcp-contract";
import { createResmonTools, type ResmonTools } from "@resmon/mcp-server";
import { followScan, payloadItems, scanStartArgs, type Testkit, type ToolCall } from "@resmon/testkit";
import { sizeOf } from "./tokenizer.js";

type Json = Record<string, unknown>;

/** The contract's page ceiling: a larger limit is clamped to it, so it is the largest page there is. */
export { MAX_LIMIT };
/** A common client cap on one tool answer. */
export const ANSWER_TOKEN_CAP = 25_000;

export interface SizeRow {
  tool: string;
  args: Json;
  bytes: number;
  tokens: number;
}

export function testkitTools(
  kit: Testkit,
  outputSchemas = true,
  extraEnv: Record<string, string> = {},
): ResmonTools {
  return createResmonTools({
    env: {
      RESMON_PORT_FILE: kit.portFile ?? "",
      RESMON_STATE_DIR: kit.stateDir,
      // The scan tools' state beside the stand-in's files, never the user's data dir.
      RESMON_MCP_SCAN_DATA: join(kit.stateDir, "mcp-scans"),
      // scan_start's example answers within half a second (await_retrieval), not the 20 s default.
      RESMON_MCP_SCAN_WAIT_MS: "500",
      ...extraEnv,
    },
    outputSchemas,
  });
}

async function answerOf(tools: ResmonTools, tool: string, args: Json): Promise<unknown> {
  const outcome = await tools.call(tool, args);
  if (!outcome.ok)
    throw new Error(
      `${tool} ${JSON.stringify(args)} answered ${outcome.error.error}: ${outcome.error.message}`,
    );
  return outcome.answer;
}

async function rowOf(tools: ResmonTools, tool: string, args: Json): Promise<SizeRow> {
  return { tool, args, ...sizeOf(await answerOf(tools, tool, args)) };
}

/** tools/list as the server sends it: the compact `{"tools": [...]}` result. */
export function listSize(tools: ResmonTools): { bytes: number; tokens: number; count: number } {
  const entries = tools.list();
  return { ...sizeOf({ tools: entries }), count: entries.length };
}

/**
 * What a model reads of tools/list: each tool's name, description and inputSchema (a harness keeps
 * output schemas and annotations for itself), as the compact list of those three, per tool on average.
 */
export function modelVisibleSize(tools: ResmonTools): { bytes: number; tokens: number; perTool: number } {
  const entries = tools
    .list()
    .map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
  const size = sizeOf(entries);
  return { ...size, perTool: size.tokens / entries.length };
}

/** Each tool's answer to its row's example call (only required arguments, so every default applies). */
export async function defaultAnswers(tools: ResmonTools): Promise<SizeRow[]> {
  const rows: SizeRow[] = [];
  // A row whose example needs earlier calls (the scan tools) is measured by scanEnvelopes instead.
  for (const t of TOOLS) if (!t.exampleNeeds) rows.push(await rowOf(tools, t.name, t.example));
  return rows;
}

/** The token budget the tool's row sets for the answer to its example. */
export function answerBudget(tool: string): number {
  return tool in TOOL_BY_NAME ? TOOL_BY_NAME[tool as ToolName].budget : 0;
}

function largest(rows: SizeRow[]): SizeRow {
  return rows.reduce((a, b) => (b.tokens > a.tokens ? b : a));
}

/** Ids the demo seed holds, read through the tools themselves. */
async function ids(
  tools: ResmonTools,
): Promise<{ executions: number[]; biggestRuns: number[]; routines: number[]; profiles: number[] }> {
  const executions: number[] = [];
  const counts = new Map<number, number>();
  for (let offset = 0; ; offset += MAX_LIMIT) {
    const page = (await answerOf(tools, "list_executions", { limit: MAX_LIMIT, offset })) as Json;
    const rows = (page.executions ?? page.items ?? []) as Json[];
    for (const row of rows) {
      if (typeof row.id !== "number") continue;
      executions.push(row.id);
      counts.set(row.id, typeof row.result_count === "number" ? row.result_count : 0);
    }
    if (rows.length < MAX_LIMIT) break;
  }
  const routines = ((await answerOf(tools, "list_routines", {})) as Json).routines as Json[];
  const profiles = ((await answerOf(tools, "list_watch_profiles", {})) as Json).profiles as Json[];
  // An export's size grows with the run's papers: the three runs with the most stand for all.
  const biggestRuns = [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([id]) => id);
  return {
    executions,
    biggestRuns,
    routines: routines.map((r) => r.id as number),
    profiles: profiles.map((p) => p.id as number),
  };
}

/** Each paginated tool at limit 100, over the demo data's ids; the largest answer per tool. */
/** For each tool, the largest successful answer over its candidate argument sets. */
async function largestPerTool(tools: ResmonTools, candidates: Record<string, Json[]>): Promise<SizeRow[]> {
  const out: SizeRow[] = [];
  for (const [tool, argsList] of Object.entries(candidates)) {
    const rows: SizeRow[] = [];
    for (const args of argsList) {
      const outcome = await tools.call(tool, args);
      if (outcome.ok) rows.push({ tool, args, ...sizeOf(outcome.answer) });
    }
    if (rows.length > 0) out.push(largest(rows));
  }
  return out;
}

export async function largestPages(tools: ResmonTools): Promise<SizeRow[]> {
  const { executions, profiles } = await ids(tools);
  const candidates: Record<string, Json[]> = {
    search_corpus: ["model", "protein", "network"].flatMap((query) => [
      { query, limit: MAX_LIMIT },
      { query, mode: "semantic", limit: MAX_LIMIT },
    ]),
    find_similar: [1, 2, 4, 7, 100, 1000].map((doc_id) => ({ doc_id, limit: MAX_LIMIT })),
    list_executions: [{ limit: MAX_LIMIT }],
    get_execution_results: executions.map((exec_id) => ({ exec_id, limit: MAX_LIMIT })),
    get_profile_matches: profiles.map((profile_id) => ({ profile_id, limit: MAX_LIMIT })),
  };
  return largestPerTool(tools, candidates);
}

/** Whole-record and export tools: the largest answer over the demo data's ids and options. */
export async function largestRecords(tools: ResmonTools): Promise<SizeRow[]> {
  const { executions, biggestRuns, routines, profiles } = await ids(tools);
  const formats = ["bibtex", "ris", "csv", "json"];
  const candidates: Record<string, Json[]> = {
    get_routine: routines.map((routine_id) => ({ routine_id })),
    get_execution: executions.map((exec_id) => ({ exec_id })),
    get_search_record: executions.map((exec_id) => ({ exec_id })),
    get_watch_profile: profiles.map((profile_id) => ({ profile_id })),
    get_analytics: ["overview", "volume", "sources", "keywords", "routine-health", "discovery-lag"].map(
      (view) => (view === "volume" ? { view, window: 120 } : { view }),
    ),
    get_watchdog_findings: [{}, { include_muted: true }],
    list_sources: [{}],
    list_routines: [{}],
    list_watch_profiles: [{}],
    export_references: [
      ...biggestRuns.flatMap((exec_id) => formats.map((format) => ({ exec_id, format }))),
      ...formats.map((format) => ({ doc_ids: Array.from({ length: MAX_LIMIT }, (_, i) => i + 1), format })),
    ],
  };
  return largestPerTool(tools, candidates);
}

/** The scan tools through an in-process server, as the scripted harness calls them. */
export function toolCall(tools: ResmonTools): ToolCall {
  return async (name, args) => {
    const outcome = await tools.call(name, args);
    return outcome.ok
      ? { ok: true, body: outcome.answer }
      : { ok: false, body: outcome.error as unknown as Json };
  };
}

/**
 * A whole scripted scan (retrieval by corpus, so nothing waits on a sweep) and the three envelopes
 * the design budgets: the first full screening batch (25 items with abstracts), the first shortlist
 * page, and scan_result.
 */
export async function scanEnvelopes(tools: ResmonTools): Promise<SizeRow[]> {
  const { calls, final } = await followScan(
    toolCall(tools),
    scanStartArgs({ scanId: randomUUID(), retrieval: "corpus" }),
  );
  const batch = calls.find(
    (c) => c.body.next_action === "screen_candidates" && payloadItems(c.body).length === 25,
  );
  const page = calls.find((c) => c.body.next_action === "rank_shortlist");
  if (!batch || !page) throw new Error("the scripted scan never answered a full batch and a shortlist page");
  return [
    { tool: "screening batch", args: { items: 25 }, ...sizeOf(batch.body) },
    { tool: "shortlist page", args: { items: payloadItems(page.body).length }, ...sizeOf(page.body) },
    { tool: "result", args: {}, ...sizeOf(final) },
  ];
}
