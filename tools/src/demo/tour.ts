/** The scripted tour: what a harness sees, one tool at a time, printed for a person. */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { serverEnv, type Testkit } from "@resmon/testkit";
import { scan } from "./scan.js";
import { heading, type Json, list, obj, orElse, out, paperLine, plural, when } from "./show.js";

export interface Server {
  bin: string;
  /** The npm package's own version: not resmon's. */
  packageName: string;
  packageVersion: string;
}

/** The harness side: one MCP client over stdio to the built server. */
export async function connect(
  kit: Testkit,
  server: Server,
  extraEnv: Record<string, string> = {},
): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [server.bin],
    env: serverEnv(kit, extraEnv),
    stderr: "ignore",
  });
  const client = new Client({ name: "resmon-demo", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

interface Answer {
  body: Json;
  /** The text block exactly as the model reads it. */
  text: string;
  isError: boolean;
}

async function answer(client: Client, name: string, args: Json = {}): Promise<Answer> {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as { type: string; text?: string }[])[0]?.text ?? "";
  return { body: JSON.parse(text || "{}") as Json, text, isError: result.isError === true };
}

async function call(client: Client, name: string, args: Json = {}): Promise<Json> {
  const { body, isError } = await answer(client, name, args);
  if (isError) throw new Error(`${name} answered ${body.error}: ${body.message}`);
  return body;
}

async function surface(client: Client, server: Server): Promise<void> {
  const info = client.getServerVersion();
  const { tools } = await client.listTools();
  const writes = tools.filter((t) => t._meta?.requires_confirmation === true);
  heading("The MCP server");
  out(
    `  ${server.packageName} ${server.packageVersion} (the npm package; it introduces itself to a harness as "${info?.name}")`,
  );
  out(
    `  ${plural(tools.length, "tool")}: ${tools.length - writes.length} reads, ${plural(writes.length, "write")} marked requires_confirmation (a harness asks you first)`,
  );
}

async function health(client: Client): Promise<string> {
  heading("health");
  const body = await call(client, "health");
  const identity = obj(body.identity);
  const scheduler =
    body.scheduler === undefined ? "not reported" : obj(body.scheduler).running ? "running" : "stopped";
  out(`  resmon ${body.version} (the desktop app's own version), database schema ${body.schema_version}`);
  out(`  scheduler ${scheduler}`);
  out(`  runtime_id ${identity.runtime_id}: pass it as expected_runtime_id to bind a read to this app`);
  return String(identity.runtime_id);
}

async function searches(client: Client): Promise<void> {
  heading('search_corpus "graph neural network" (keyword)');
  const keyword = await call(client, "search_corpus", { query: "graph neural network", limit: 5 });
  out(
    `  ${plural(keyword.total, "match", "matches")}, newest first; ${keyword.next_cursor ? "more pages (next_cursor given)" : "no more pages"}`,
  );
  for (const p of list(keyword.papers)) out(paperLine(p));

  heading('search_corpus "learning on molecular graphs" (semantic)');
  const semantic = await call(client, "search_corpus", {
    query: "learning on molecular graphs",
    mode: "semantic",
    limit: 5,
  });
  out(
    semantic.mode === "semantic"
      ? `  ranked by meaning (${semantic.model}): ${semantic.ranked_count} papers with a vector, ${semantic.unranked_count} without (listed after, unordered); a smaller distance is closer`
      : `  resmon declined to rank by meaning: ${semantic.mode_unavailable}`,
  );
  for (const p of list(semantic.papers)) out(paperLine(p));
}

async function routine(client: Client): Promise<void> {
  const routines = list((await call(client, "list_routines")).routines);
  const chosen = routines.find((r) => obj(r.missed_fires).count) ?? routines[0];
  if (!chosen) return;
  heading(`get_routine ${chosen.id}: "${chosen.name}"`);
  const detail = await call(client, "get_routine", { routine_id: chosen.id });
  out(
    `  schedule ${detail.schedule}, ${detail.is_active ? "active" : "inactive"}; sources ${list(detail.sources).join(", ")}`,
  );
  // A resmon before 2.3 has no missed fires: the answer names them in not_reported, never a 0.
  if (detail.missed_fires === undefined)
    out("  missed fires: not reported by this resmon (2.3+ reports them)");
  else {
    const missed = obj(detail.missed_fires);
    out(`  missed fires: ${orElse(missed.count, "0")} (last due ${when(missed.last_due_at_utc)})`);
  }
  if (detail.coverage) {
    const coverage = obj(detail.coverage);
    const floor = coverage.missed_in_corpus_count_is_lower_bound ? "at least " : "";
    out(
      `  coverage, measured against its ${orElse(coverage.measured_against, "stated terms")}: ${coverage.off_target_count} off target, ${floor}${coverage.missed_in_corpus_count} missed in the corpus`,
    );
    if (coverage.reason) out(`    ${coverage.reason}`);
  }
  if (!detail.delivery) {
    out("  delivery: resmon could not report it");
    return;
  }
  const d = obj(detail.delivery);
  const channels = Object.entries(obj(d.targets_by_channel))
    .filter(([, n]) => Number(n) > 0)
    .map(([c, n]) => `${n} ${c}`);
  out(
    `  delivery: ${plural(d.enabled_target_count, "destination")} (${channels.join(", ") || "none"}), ${d.awaiting_review} awaiting review`,
  );
  out(
    `    last: ${orElse(d.last_state, "never delivered")}${d.last_channel ? ` via ${d.last_channel}` : ""}${d.last_error ? ` — ${d.last_error}` : ""}`,
  );
}

async function executions(client: Client, runtimeId: string): Promise<void> {
  const runs = list((await call(client, "list_executions", { limit: 5 })).executions);
  heading("list_executions (newest 5)");
  for (const r of runs) {
    const why = r.interrupted_reason ? ` (${r.interrupted_reason})` : "";
    out(
      `  #${r.id} ${r.type} ${r.status}${why}: ${plural(r.result_count ?? 0, "result")}, started ${when(r.started)}`,
    );
  }
  const run = runs.find((r) => r.status === "completed" && Number(r.result_count) > 0) ?? runs[0];
  if (!run) return;
  heading(`get_execution ${run.id} and its search record`);
  const execution = await call(client, "get_execution", {
    exec_id: run.id,
    expected_runtime_id: runtimeId,
  });
  out(
    `  ${execution.status}, ${when(execution.start_time)} to ${when(execution.end_time, "not finished")}; ${plural(execution.event_count ?? 0, "progress event")} recorded`,
  );
  out(`  coverage: ${orElse(obj(execution.coverage).summary, "not recorded")}`);
  const record = await call(client, "get_search_record", { exec_id: run.id });
  const search = obj(record.search);
  out(`  terms as typed: ${orElse(search.query_as_sent, "(none)")}`);
  for (const row of list(search.queries_as_sent)) {
    const sent = list(row.sent).map(String);
    out(
      `    sent to ${row.source}: ${sent.length ? sent.join(" | ") : `nothing (${orElse(row.note, "no note")})`}`,
    );
  }
}

const NEW_ROUTINE = {
  name: "Demo: graph learning for molecules",
  keywords: ["graph neural network", "molecule"],
  sources: ["arxiv", "openalex"],
  schedule: "0 7 * * 1",
  intent: "Graph neural networks that predict molecular properties.",
};

async function write(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  const tool = tools.find((t) => t.name === "create_routine");
  heading("create_routine: a write, gated on your confirmation");
  out(
    `  tools/list marks it requires_confirmation: ${tool?._meta?.requires_confirmation === true}, readOnlyHint: ${tool?.annotations?.readOnlyHint}`,
  );
  out("  so a harness shows you the call and waits for a yes. The demo says yes for you:");
  out(`  create_routine ${JSON.stringify(NEW_ROUTINE)}`);
  const created = await call(client, "create_routine", NEW_ROUTINE);
  const routine = obj(created.routine);
  out(
    `  → routine #${routine.id} "${routine.name}", ${routine.is_active ? "active" : "inactive"} (read back from resmon: ${created.read_back ? "yes" : "no"})`,
  );
  const note = obj(created.detail).note;
  if (note) out(`    ${note}`);
}

async function readOnly(kit: Testkit, server: Server): Promise<void> {
  heading("The same write in a read-only session (RESMON_MCP_READ_ONLY=1)");
  const client = await connect(kit, server, { RESMON_MCP_READ_ONLY: "1" });
  try {
    const { tools } = await client.listTools();
    out(`  tools/list offers ${plural(tools.length, "tool")}, no writes; a write called anyway is refused:`);
    const refused = await answer(client, "create_routine", NEW_ROUTINE);
    out(
      `  → ${refused.isError ? "isError" : "not an error?"}, ${refused.body.error}: ${refused.body.message}`,
    );
    out(`    detail ${JSON.stringify(refused.body.detail)}; nothing was sent to resmon`);
  } finally {
    await client.close();
  }
}

/** Run in a child process, asynchronously: the stand-in lives in this process and must keep answering. */
async function doctor(kit: Testkit, server: Server): Promise<void> {
  heading("resmon-mcp doctor: what discovery sees");
  const run = await promisify(execFile)(process.execPath, [server.bin, "doctor"], {
    env: serverEnv(kit),
    encoding: "utf8",
    timeout: 30_000,
  }).then(
    (r) => ({ stdout: r.stdout, code: 0 }),
    (e: { stdout?: string; code?: number }) => ({ stdout: e.stdout ?? "", code: e.code ?? 1 }),
  );
  const lines = run.stdout.split("\n").filter((l) => l.trim() !== "");
  out(
    `  ${lines.length} lines of findings (variables, discovery, health); its verdict, exit code ${run.code}:`,
  );
  out(`  ${lines.at(-1)?.trim() ?? "(doctor printed nothing)"}`);
}

async function rawAnswer(client: Client): Promise<void> {
  const args = { profile_id: 1 };
  heading(`What the model receives: get_watch_profile ${JSON.stringify(args)}`);
  out("  (the text block of the tools/call result; structuredContent carries the same object)");
  out();
  out((await answer(client, "get_watch_profile", args)).text);
}

export async function tour(kit: Testkit, server: Server): Promise<void> {
  const client = await connect(kit, server);
  try {
    await surface(client, server);
    const runtimeId = await health(client);
    await searches(client);
    await routine(client);
    await executions(client, runtimeId);
    await scan(client);
    await write(client);
    await readOnly(kit, server);
    await doctor(kit, server);
    await rawAnswer(client);
  } finally {
    await client.close();
  }
}
