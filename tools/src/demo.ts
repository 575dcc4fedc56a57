/**
 * `pnpm demo`: start the stand-in resmon (testkit, demo seed) in a temporary state directory, start
 * the real MCP server over stdio against it, run a short scripted tour through an MCP client, then
 * print how to point a harness at the running demo and keep serving until Ctrl-C.
 * `--once` exits after the tour. The token is never printed.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { serverEnv, startTestkit, type Testkit } from "@resmon/testkit";

type Json = Record<string, unknown>;

const once = process.argv.includes("--once");
const require = createRequire(import.meta.url);
/** The bin the package ships (package.json "bin"), so the demo runs what a harness would run. */
function serverBinPath(): string {
  const manifest = require.resolve("@resmon/mcp-server/package.json");
  const { bin } = require(manifest) as { bin?: string | Record<string, string> };
  const relative = typeof bin === "string" ? bin : (bin?.["resmon-mcp"] ?? "dist/cli.js");
  return join(dirname(manifest), relative);
}
const serverBin = serverBinPath();

function out(line = ""): void {
  process.stdout.write(`${line}\n`);
}

function heading(title: string): void {
  out();
  out(`── ${title} ${"─".repeat(Math.max(0, 72 - title.length))}`);
}

function list(value: unknown): Json[] {
  return Array.isArray(value) ? (value as Json[]) : [];
}

function obj(value: unknown): Json {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Json) : {};
}

function paperLine(p: Json): string {
  const distance = typeof p.distance === "number" ? ` (distance ${p.distance.toFixed(3)})` : "";
  return `  #${p.id} ${p.title} — ${p.source}, ${p.date}${distance}`;
}

/** The harness side: one MCP client over stdio to the built server. */
async function connect(kit: Testkit, stateDir: string): Promise<Client> {
  const env = serverEnv({ portFile: kit.portFile, stateDir });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [serverBin],
    env,
    stderr: "ignore",
  });
  const client = new Client({ name: "resmon-demo", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

async function call(client: Client, name: string, args: Json = {}): Promise<Json> {
  const result = await client.callTool({ name, arguments: args });
  const first = (result.content as { type: string; text?: string }[])[0];
  const body = JSON.parse(first?.text ?? "{}") as Json;
  if (result.isError) throw new Error(`${name} answered ${body.error}: ${body.message}`);
  return body;
}

async function tour(client: Client): Promise<void> {
  const info = client.getServerVersion();
  const { tools } = await client.listTools();
  heading("The MCP server");
  out(
    `  ${info?.name} ${info?.version}: ${tools.length} tools, ${tools.filter((t) => t._meta?.requires_confirmation).length} of them writes that ask first`,
  );

  heading("health");
  const health = await call(client, "health");
  const identity = obj(health.identity);
  out(
    `  resmon ${health.version}, schema ${health.schema_version}, scheduler ${health.scheduler === undefined ? "not reported" : obj(health.scheduler).running ? "running" : "stopped"}`,
  );
  out(`  runtime_id ${identity.runtime_id} (pass it as expected_runtime_id to bind a read to this app)`);

  heading('search_corpus "graph neural network" (keyword)');
  const keyword = await call(client, "search_corpus", { query: "graph neural network", limit: 5 });
  out(
    `  mode ${keyword.mode}, ${keyword.total} match${keyword.total === 1 ? "" : "es"}; next_cursor ${keyword.next_cursor}`,
  );
  for (const p of list(keyword.papers)) out(paperLine(p));

  heading('search_corpus "message passing on graphs" (semantic)');
  const semantic = await call(client, "search_corpus", {
    query: "message passing on graphs",
    mode: "semantic",
    limit: 5,
  });
  out(
    semantic.mode === "semantic"
      ? `  mode semantic, model ${semantic.model}: ${semantic.ranked_count} ranked, ${semantic.unranked_count} with no vector (appended unordered)`
      : `  resmon declined to rank by meaning: ${semantic.mode_unavailable}`,
  );
  for (const p of list(semantic.papers)) out(paperLine(p));

  const routines = list((await call(client, "list_routines")).routines);
  const routine = routines.find((r) => obj(r.missed_fires).count) ?? routines[0];
  if (routine) {
    heading(`get_routine ${routine.id}: "${routine.name}"`);
    const detail = await call(client, "get_routine", { routine_id: routine.id });
    out(
      `  schedule ${detail.schedule}, ${detail.is_active ? "active" : "inactive"}; sources ${list(detail.sources).join(", ")}`,
    );
    out(
      `  missed fires: ${obj(detail.missed_fires).count} (last due ${obj(detail.missed_fires).last_due_at_utc ?? "never"})`,
    );
    const coverage = obj(detail.coverage);
    if (detail.coverage) {
      const floor = coverage.missed_in_corpus_count_is_lower_bound ? "at least " : "";
      out(
        `  coverage (measured against its ${coverage.measured_against ?? "?"}): ${coverage.off_target_count} off target, ${floor}${coverage.missed_in_corpus_count} missed in corpus`,
      );
      if (coverage.reason) out(`    ${coverage.reason}`);
    }
    if (detail.delivery) {
      const d = obj(detail.delivery);
      const channels = Object.entries(obj(d.targets_by_channel))
        .filter(([, n]) => Number(n) > 0)
        .map(([c, n]) => `${n} ${c}`);
      out(
        `  delivery: ${d.enabled_target_count} destinations (${channels.join(", ") || "none"}), ${d.awaiting_review} awaiting review`,
      );
      out(
        `    last: ${d.last_state ?? "never delivered"}${d.last_channel ? ` via ${d.last_channel}` : ""}${d.last_error ? ` — ${d.last_error}` : ""}`,
      );
    } else out("  delivery: resmon could not report it");
  }

  const runs = list((await call(client, "list_executions", { limit: 5 })).executions);
  heading("list_executions (newest 5)");
  for (const r of runs) {
    const why = r.interrupted_reason ? ` (${r.interrupted_reason})` : "";
    out(`  #${r.id} ${r.type} ${r.status}${why}, ${r.result_count ?? 0} results, started ${r.started}`);
  }
  const run = runs.find((r) => r.status === "completed" && Number(r.result_count) > 0) ?? runs[0];
  if (run) {
    heading(`get_execution ${run.id} and its search record`);
    const execution = await call(client, "get_execution", {
      exec_id: run.id,
      expected_runtime_id: identity.runtime_id,
    });
    out(
      `  ${execution.status}; ${execution.event_count} progress events, the last: ${JSON.stringify(execution.last_event)}`,
    );
    out(`  coverage: ${obj(execution.coverage).summary ?? "not recorded"}`);
    const record = await call(client, "get_search_record", { exec_id: run.id });
    const search = obj(record.search);
    out(`  terms as typed: ${JSON.stringify(search.query_as_sent)}`);
    for (const row of list(search.queries_as_sent)) {
      const sent = list(row.sent).map(String);
      out(`    ${row.source}: ${sent.length ? sent.join(" | ") : `(nothing sent: ${row.note})`}`);
    }
  }
}

function harnessHelp(kit: Testkit, stateDir: string): void {
  const env = { RESMON_PORT: String(kit.port), RESMON_STATE_DIR: stateDir };
  heading("Point a harness at this demo");
  out("  The server needs two things: which resmon (its port) and where that resmon keeps its token");
  out("  (the state directory). The token itself is never written into any configuration.");
  out();
  out("  Claude Code:");
  out(
    `    claude mcp add resmon --env RESMON_PORT=${env.RESMON_PORT} --env RESMON_STATE_DIR=${stateDir} -- node ${serverBin}`,
  );
  out("    (or, once published: ... -- npx -y @resmon/mcp-server)");
  out();
  out("  Codex (~/.codex/config.toml):");
  out("    [mcp_servers.resmon]");
  out('    command = "node"');
  out(`    args = [${JSON.stringify(serverBin)}]`);
  out(`    env = { RESMON_PORT = "${env.RESMON_PORT}", RESMON_STATE_DIR = ${JSON.stringify(stateDir)} }`);
  out();
  out("  Cursor (.cursor/mcp.json):");
  const cursor = { mcpServers: { resmon: { command: "node", args: [serverBin], env } } };
  for (const line of JSON.stringify(cursor, null, 2).split("\n")) out(`    ${line}`);
  out();
  out("  Add RESMON_MCP_READ_ONLY=1 to that env for a session that can only read.");
}

async function main(): Promise<void> {
  const stateDir = mkdtempSync(join(tmpdir(), "resmon-demo-"));
  const started = Date.now();
  const kit = await startTestkit({ stateDir, seed: "demo" });
  out(
    `resmon stand-in (testkit, demo seed) on 127.0.0.1:${kit.port} in ${Date.now() - started} ms; state dir ${stateDir}`,
  );
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    await kit.stop().catch(() => undefined);
    rmSync(stateDir, { recursive: true, force: true });
    process.exit(code);
  };
  process.on("SIGINT", () => void stop(0));
  process.on("SIGTERM", () => void stop(0));

  try {
    const client = await connect(kit, stateDir);
    await tour(client);
    await client.close();
  } catch (err) {
    process.stderr.write(`demo failed: ${err instanceof Error ? err.message : String(err)}\n`);
    await stop(1);
    return;
  }
  if (once) {
    await stop(0);
    return;
  }
  harnessHelp(kit, stateDir);
  out();
  out("Serving until Ctrl-C.");
}

void main();
