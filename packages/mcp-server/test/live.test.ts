import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { READ_TOOLS, TOOL_BY_NAME, type ToolName, WRITE_TOOLS } from "@resmon/mcp-contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isError, parsed } from "./helpers/mcp.js";
import { CLI, cleanEnv, HAVE_CLI } from "./helpers/spawn.js";

/**
 * Opt-in: all 25 tools against a real running resmon.
 *   RESMON_LIVE=1 RESMON_PORT=<port> RESMON_STATE_DIR=<dir> pnpm --filter @resmon/mcp-server test
 * Read-only by default (the server runs with RESMON_MCP_READ_ONLY=1 and every write must be refused);
 * RESMON_LIVE_WRITES=1 also runs the writes, which change that resmon (a routine and a profile are created,
 * a sweep and a routine run are started, a notification setting is written back to its own value).
 */
const env = process.env;
const LIVE = env.RESMON_LIVE === "1" && !!env.RESMON_PORT && !!env.RESMON_STATE_DIR && HAVE_CLI;
const WRITES = env.RESMON_LIVE_WRITES === "1";

let client: Client;

beforeAll(async () => {
  if (!LIVE) return;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI],
    env: cleanEnv({
      RESMON_PORT: env.RESMON_PORT ?? "",
      RESMON_STATE_DIR: env.RESMON_STATE_DIR ?? "",
      ...(WRITES ? {} : { RESMON_MCP_READ_ONLY: "1" }),
    }),
    stderr: "inherit",
  });
  client = new Client({ name: "live", version: "0.0.0" });
  await client.connect(transport);
}, 30_000);

afterAll(async () => client?.close());

async function call(name: ToolName, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  return { error: isError(result), body: parsed(result) };
}

/** A success in its documented shape, or one of the spec's errors (never the SDK's own). */
function honest(name: ToolName, r: { error: boolean; body: Record<string, unknown> }): void {
  if (r.error) {
    expect(["not_found", "invalid_argument", "conflict", "upstream_error"]).toContain(r.body.error);
  } else {
    expect(TOOL_BY_NAME[name].output.safeParse(r.body).success).toBe(true);
  }
}

describe.skipIf(!LIVE)("live resmon", () => {
  const ids = { routine: 1, exec: 1, doc: 1, profile: 1 };

  it("health answers with an identity", async () => {
    const { error, body } = await call("health");
    expect(error, JSON.stringify(body)).toBe(false);
    expect(body.identity).toMatchObject({ contract_version: 1 });
  });

  it("finds ids to read with", async () => {
    const routines = (await call("list_routines")).body.routines as { id: number }[] | undefined;
    if (routines?.[0]) ids.routine = routines[0].id;
    const runs = (await call("list_executions", { limit: 5 })).body.executions as
      | { id: number }[]
      | undefined;
    if (runs?.[0]) ids.exec = runs[0].id;
    const papers = (await call("search_corpus", { query: "a", limit: 1 })).body.papers as
      | { id: number }[]
      | undefined;
    if (papers?.[0]) ids.doc = papers[0].id;
    const profiles = (await call("list_watch_profiles")).body.profiles as { id: number }[] | undefined;
    if (profiles?.[0]) ids.profile = profiles[0].id;
  });

  it("every read answers honestly", async () => {
    const runtime = ((await call("health")).body.identity as { runtime_id: string }).runtime_id;
    const reads: [ToolName, Record<string, unknown>][] = [
      ["health", { expected_runtime_id: runtime }],
      ["search_corpus", { query: "model", limit: 3 }],
      ["search_corpus", { query: "model", mode: "semantic", limit: 3 }],
      ["find_similar", { doc_id: ids.doc, limit: 3 }],
      ["list_sources", {}],
      ["list_routines", {}],
      ["get_routine", { routine_id: ids.routine }],
      ["list_executions", { status: "completed", limit: 3 }],
      ["get_execution", { exec_id: ids.exec, expected_runtime_id: runtime }],
      ["get_execution_results", { exec_id: ids.exec, limit: 3 }],
      ["get_search_record", { exec_id: ids.exec }],
      ["explain_match", { doc_id: ids.doc }],
      ["get_paper_lifecycle", { doc_id: ids.doc }],
      ["get_analytics", { view: "overview" }],
      ["get_watchdog_findings", {}],
      ["export_references", { exec_id: ids.exec, format: "ris" }],
      ["list_watch_profiles", {}],
      ["get_watch_profile", { profile_id: ids.profile }],
      ["get_profile_matches", { profile_id: ids.profile, limit: 3 }],
    ];
    expect(new Set(reads.map(([n]) => n))).toEqual(new Set(READ_TOOLS));
    for (const [name, args] of reads) honest(name, await call(name, args));
  });

  it.skipIf(WRITES)("every write is refused in a read-only session", async () => {
    for (const name of WRITE_TOOLS) {
      const { body } = await call(name, {});
      expect(body).toMatchObject({ error: "invalid_argument", detail: { read_only: true } });
    }
  });

  it.skipIf(!WRITES)("every write answers honestly", async () => {
    // Written, then put back to what it was (the answer's diff says what that was).
    const set = await call("update_settings", {
      group: "notifications",
      settings: { notify_manual: "true" },
    });
    honest("update_settings", set);
    const before = (set.body.changed as Record<string, { from: unknown }> | undefined)?.notify_manual?.from;
    if (before !== undefined) {
      honest(
        "update_settings",
        await call("update_settings", {
          group: "notifications",
          settings: { notify_manual: String(before) },
        }),
      );
    }
    honest("run_sweep", await call("run_sweep", { query: "live check", sources: ["arxiv"], max_results: 1 }));
    const created = await call("create_routine", {
      name: "resmon-mcp live check",
      keywords: ["live"],
      sources: ["arxiv"],
      schedule: "0 7 * * 1",
    });
    honest("create_routine", created);
    const id = (created.body.routine as { id?: number } | undefined)?.id ?? ids.routine;
    honest("activate_routine", await call("activate_routine", { routine_id: id }));
    honest("deactivate_routine", await call("deactivate_routine", { routine_id: id }));
    honest("run_routine", await call("run_routine", { routine_id: id }));
    honest("create_watch_profile", await call("create_watch_profile", { name: "Live Check" }));
  });
});
