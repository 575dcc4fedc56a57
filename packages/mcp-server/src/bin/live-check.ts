/**
 * `resmon-mcp doctor --tools`: every read tool, called through this package's own server over stdio
 * (as a harness calls it) against the resmon discovery found, with ids the check finds itself. Each
 * answer is held to its tool's output schema from @resmon/mcp-contract, or to the contract's error
 * model; the token must appear nowhere the server wrote. One line per call; a mismatch fails the
 * check. Writes only with `writes: true`, and the plan is printed before the first one is sent.
 */
import {
  ARGUMENT_NEEDS,
  compareVersions,
  ERROR_CODES,
  FEATURE_SINCE,
  lineOfVersion,
  NOT_IN_THIS_RESMON,
  READ_TOOLS,
  type ResmonLine,
  TOOL_BY_NAME,
  TOOLS,
  type ToolName,
  toolNeeds,
  WRITE_TOOLS,
} from "@resmon/mcp-contract";
import { StdioPeer } from "./stdio-peer.js";

export interface LiveCheckOptions {
  /** The environment the server runs with (the variables that name the resmon). */
  env: Record<string, string>;
  /** The token discovery read, to confirm it appears in no output. Never printed. */
  token: string;
  /** Also call the writes (they change that resmon); otherwise the server runs read-only. */
  writes?: boolean;
  /** The server to start; default this very bin (process.execPath and process.argv[1]). */
  server?: { command: string; args: string[] };
  /** How long one tool call may take before it is a failure (default 60 s). */
  callTimeoutMs?: number;
  write: (line: string) => void;
}

export interface CallVerdict {
  label: string;
  ok: boolean;
  /** What was seen, for a person: "answered", "error not_found: ...", or why it is a mismatch. */
  note: string;
}

type Body = Record<string, unknown>;
type Answer = { isError: boolean; body: Body };

/**
 * The codes a read may honestly answer with against a resmon that is up; the rest are mismatches here.
 * Not upstream_error: the server answers it when resmon's reply lacks what the tool promises, which
 * is exactly the mismatch this check exists to find.
 */
const HONEST_READ_ERRORS = new Set(["not_found", "conflict"]);

/** What --writes does, said before it does it (nothing deletes, so all of it stays). */
export const WRITE_PLAN: readonly string[] = [
  'update_settings: set notifications.notify_manual to "true", then back to the value it had',
  'run_sweep: start one sweep of arXiv for "resmon-mcp doctor check" (max_results 1)',
  'create_routine: create a routine named "resmon-mcp doctor check" (arXiv, Mondays 07:00)',
  "activate_routine, deactivate_routine: put that routine on the schedule, then take it off",
  "run_routine: run that routine once now",
  'create_watch_profile: create a watch profile named "Resmon Doctor Check"',
];

const CHECK_NAME = "resmon-mcp doctor check";

function isRecord(value: unknown): value is Body {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function firstId(body: Body, key: string): number | undefined {
  const rows = body[key];
  const first = Array.isArray(rows) ? rows[0] : undefined;
  return isRecord(first) && Number.isInteger(first.id) ? (first.id as number) : undefined;
}

/** The contract's error model: {error, message, detail}, and tried/no_port_named on backend_unavailable. */
export function envelopeProblem(body: Body): string | undefined {
  if (typeof body.error !== "string" || !(ERROR_CODES as readonly string[]).includes(body.error)) {
    return `"error" is ${JSON.stringify(body.error)}, not one of the contract's codes`;
  }
  if (typeof body.message !== "string" || body.message.trim() === "") return '"message" is not a sentence';
  if (!isRecord(body.detail)) return '"detail" is not an object';
  if (body.error === "backend_unavailable") {
    if (!Array.isArray(body.tried) || typeof body.no_port_named !== "boolean") {
      return "backend_unavailable without tried and no_port_named";
    }
  }
  return undefined;
}

function schemaProblem(name: ToolName, body: Body): string | undefined {
  const parsed = TOOL_BY_NAME[name].output.safeParse(body);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? issue.path.map(String).join(".") : "the answer";
  return `does not match its output schema (${where}: ${issue?.message ?? "invalid"})`;
}

function shortMessage(body: Body): string {
  const text = typeof body.message === "string" ? body.message : "";
  return text.length > 100 ? `${text.slice(0, 97)}...` : text;
}

class Checker {
  readonly verdicts: CallVerdict[] = [];
  /** Every tool called so far, so a read no step names (a new row) is still called once. */
  readonly called = new Set<ToolName>();
  /** Tools this resmon is too old for: the first line that answers them (a version gap, not a mismatch). */
  readonly gaps = new Map<ToolName, string>();
  /** Tools with at least one call that did not match. */
  readonly mismatched = new Set<ToolName>();
  /** Tools that answered (a success or an honest error). */
  readonly answered = new Set<ToolName>();
  /** What health said resmon's version is. */
  version: string | null = null;
  readonly #peer: StdioPeer;
  readonly #token: string;
  readonly #write: (line: string) => void;

  constructor(peer: StdioPeer, token: string, write: (line: string) => void) {
    this.#peer = peer;
    this.#token = token;
    this.#write = write;
  }

  record(verdict: CallVerdict): void {
    this.verdicts.push(verdict);
    this.#write(`  ${verdict.ok ? "ok  " : "FAIL"}  ${verdict.label.padEnd(28)} ${verdict.note}`);
  }

  /** One tools/call, as the harness gets it; undefined (and a FAIL line) when it is not a tool answer. */
  async call(name: ToolName, args: Body, label: string = name): Promise<Answer | undefined> {
    this.called.add(name);
    let frame: Body;
    try {
      frame = (await this.#peer.request("tools/call", { name, arguments: args })).message;
    } catch (error) {
      this.record({ label, ok: false, note: error instanceof Error ? error.message : "no answer" });
      return undefined;
    }
    const raw = JSON.stringify(frame);
    if (this.#token && raw.includes(this.#token)) {
      this.record({ label, ok: false, note: "the answer carries the token" });
      return undefined;
    }
    const result = frame.result;
    if (!isRecord(result)) {
      this.record({
        label,
        ok: false,
        note: `a JSON-RPC error, not a tool answer: ${JSON.stringify(frame.error)}`,
      });
      return undefined;
    }
    const content = Array.isArray(result.content) ? result.content[0] : undefined;
    let body: unknown;
    try {
      body = isRecord(content) && typeof content.text === "string" ? JSON.parse(content.text) : undefined;
    } catch {
      body = undefined;
    }
    if (!isRecord(body)) {
      this.record({ label, ok: false, note: "the answer's text is not a JSON object" });
      return undefined;
    }
    return { isError: result.isError === true, body };
  }

  /** Call a tool and judge it: its output schema, or an honest error. */
  async read(name: ToolName, args: Body, label: string = name, missing?: string): Promise<Body | undefined> {
    const answer = await this.call(name, args, label);
    if (!answer) {
      this.mismatched.add(name);
      return undefined;
    }
    const suffix = missing ? ` (${missing})` : "";
    const gap = versionGap(answer);
    if (gap !== undefined) {
      this.gaps.set(name, gap);
      this.record({ label, ok: true, note: `needs resmon ≥ ${gap}: ${shortMessage(answer.body)}` });
      return undefined;
    }
    const before = this.verdicts.length;
    const body = await this.judge(name, answer, label, suffix);
    if (this.verdicts.slice(before).some((v) => !v.ok)) this.mismatched.add(name);
    else this.answered.add(name);
    if (name === "health" && body && typeof body.version === "string") this.version = body.version;
    return body;
  }

  private async judge(
    name: ToolName,
    answer: Answer,
    label: string,
    suffix: string,
  ): Promise<Body | undefined> {
    if (answer.isError) {
      const problem = envelopeProblem(answer.body);
      if (problem) {
        this.record({ label, ok: false, note: `an error outside the contract's model: ${problem}` });
      } else if (!HONEST_READ_ERRORS.has(String(answer.body.error))) {
        this.record({ label, ok: false, note: `error ${answer.body.error}: ${shortMessage(answer.body)}` });
      } else {
        this.record({
          label,
          ok: true,
          note: `error ${answer.body.error}: ${shortMessage(answer.body)}${suffix}`,
        });
      }
      return undefined;
    }
    const problem = schemaProblem(name, answer.body);
    this.record({
      label,
      ok: problem === undefined,
      note: problem ?? `answered; matches its output schema${suffix}`,
    });
    return problem === undefined ? answer.body : undefined;
  }

  /** In a read-only session every write is refused before it reaches resmon. */
  async refusedWrite(name: ToolName): Promise<void> {
    const answer = await this.call(name, {});
    if (!answer) return;
    const refused =
      answer.isError &&
      envelopeProblem(answer.body) === undefined &&
      answer.body.error === "invalid_argument" &&
      isRecord(answer.body.detail) &&
      answer.body.detail.read_only === true;
    if (!refused) this.mismatched.add(name);
    this.record({
      label: name,
      ok: refused,
      note: refused ? "refused: read-only session (not sent)" : "was not refused as read-only",
    });
  }
}

/** The needed line of a version-gap answer (contract 1.2's not_in_this_resmon), else undefined. */
function versionGap(answer: Answer): string | undefined {
  const detail = answer.body.detail;
  if (!answer.isError || answer.body.error !== "conflict" || !isRecord(detail)) return undefined;
  if (detail.reason !== NOT_IN_THIS_RESMON) return undefined;
  return typeof detail.needs === "string" ? detail.needs : "a newer release";
}

/** " (but: retrieval sweep|both needs resmon ≥ 2.3)" for each of a tool's arguments newer than this line. */
function argumentGaps(tool: string, line: ResmonLine): string {
  const gaps = ARGUMENT_NEEDS.filter(
    (n) => n.tool === tool && compareVersions(FEATURE_SINCE[n.feature], line) > 0,
  ).map((n) => {
    const what =
      "values" in n.when
        ? `${n.argument} ${n.when.values.join("|")}${n.when.or_absent ? " (the default)" : ""}`
        : "keys" in n.when
          ? `${n.argument} key ${n.when.keys.join(" or ")}`
          : n.argument;
    return `${what} needs resmon ≥ ${FEATURE_SINCE[n.feature]}`;
  });
  return gaps.length ? ` (but: ${gaps.join("; ")})` : "";
}

/**
 * Per tool: ok, needs resmon ≥ X, or mismatch, then the one-line summary. A tool this check did
 * not send (the writes of a read-only run) is judged by the version table against the newest line
 * this resmon showed it serves.
 */
function toolSummary(c: Checker, write: (line: string) => void): void {
  let line: ResmonLine = lineOfVersion(c.version);
  for (const name of c.answered) {
    const needs = toolNeeds(TOOL_BY_NAME[name]);
    if (compareVersions(needs, line) > 0) line = needs;
  }
  const judged = (name: ToolName) => c.answered.has(name) || c.mismatched.has(name) || c.gaps.has(name);
  const needsOf = (name: ToolName): string | undefined => {
    if (c.gaps.has(name)) return c.gaps.get(name);
    if (judged(name)) return undefined;
    const needs = toolNeeds(TOOL_BY_NAME[name]);
    return compareVersions(needs, line) > 0 ? needs : undefined;
  };
  write("");
  write("Per tool:");
  let available = 0;
  let gaps = 0;
  for (const tool of TOOLS) {
    const needs = needsOf(tool.name);
    const status = c.mismatched.has(tool.name) ? "mismatch" : needs ? `needs resmon ≥ ${needs}` : "ok";
    if (status === "ok") available += 1;
    else if (needs && status !== "mismatch") gaps += 1;
    // An answering tool with an argument this resmon lacks: named, so "ok" is not read as "all of it".
    const partly = status === "ok" ? argumentGaps(tool.name, line) : "";
    write(
      `  ${status.padEnd(20)} ${tool.name}${judged(tool.name) ? "" : " (not sent: judged by version)"}${partly}`,
    );
  }
  const mismatches = TOOLS.length - available - gaps;
  write(
    `resmon ${c.version ?? "(version not reported)"}: ${available} of ${TOOLS.length} tools available` +
      (gaps ? `; ${gaps} need a newer resmon` : "") +
      (mismatches ? `; ${mismatches} mismatch` : ""),
  );
}

async function checkReads(c: Checker): Promise<void> {
  const health = await c.read("health", {});
  const identity = isRecord(health?.identity) ? health.identity : undefined;
  const runtime = typeof identity?.runtime_id === "string" ? identity.runtime_id : undefined;
  if (runtime) await c.read("health", { expected_runtime_id: runtime }, "health (expected runtime)");

  const routines = await c.read("list_routines", {});
  const executions = await c.read("list_executions", { limit: 5 });
  const profiles = await c.read("list_watch_profiles", {});
  const search = await c.read("search_corpus", { query: "a", limit: 1 });
  await c.read("search_corpus", { query: "model", mode: "semantic", limit: 3 }, "search_corpus (semantic)");

  const found = {
    routine: routines ? firstId(routines, "routines") : undefined,
    exec: executions ? firstId(executions, "executions") : undefined,
    profile: profiles ? firstId(profiles, "profiles") : undefined,
    doc: search ? firstId(search, "papers") : undefined,
  };
  const results =
    found.exec !== undefined
      ? await c.read("get_execution_results", { exec_id: found.exec, limit: 3 })
      : undefined;
  found.doc ??= results ? firstId(results, "papers") : undefined;
  if (found.exec === undefined)
    await c.read("get_execution_results", { exec_id: 1, limit: 3 }, undefined, "no run found; asked for 1");

  const idOr = (id: number | undefined, what: string): [number, string | undefined] =>
    id === undefined ? [1, `no ${what} found; asked for 1`] : [id, undefined];
  const [routineId, noRoutine] = idOr(found.routine, "routine");
  const [execId, noExec] = idOr(found.exec, "run");
  const [docId, noDoc] = idOr(found.doc, "paper");
  const [profileId, noProfile] = idOr(found.profile, "watch profile");

  await c.read("find_similar", { doc_id: docId, limit: 3 }, undefined, noDoc);
  await c.read("list_sources", {});
  await c.read("get_routine", { routine_id: routineId }, undefined, noRoutine);
  await c.read("list_executions", { status: "completed", limit: 3 }, "list_executions (completed)");
  const pinned = runtime ? { expected_runtime_id: runtime } : {};
  await c.read("get_execution", { exec_id: execId, ...pinned }, undefined, noExec);
  await c.read("get_search_record", { exec_id: execId }, undefined, noExec);
  await c.read("explain_match", { doc_id: docId }, undefined, noDoc);
  await c.read("get_paper_lifecycle", { doc_id: docId }, undefined, noDoc);
  await c.read("get_analytics", { view: "overview" });
  await c.read("get_watchdog_findings", {});
  await c.read("export_references", { exec_id: execId, format: "ris" }, undefined, noExec);
  await c.read("get_watch_profile", { profile_id: profileId }, undefined, noProfile);
  await c.read("get_profile_matches", { profile_id: profileId, limit: 3 }, undefined, noProfile);
  // A read none of the steps above names yet is called with its row's example (demo-data ids, so
  // an honest not_found from this resmon is a pass).
  for (const name of READ_TOOLS) {
    if (!c.called.has(name)) await c.read(name, TOOL_BY_NAME[name].example, undefined, "its row's example");
  }
}

async function checkWrites(c: Checker): Promise<void> {
  const set = await c.read("update_settings", {
    group: "notifications",
    settings: { notify_manual: "true" },
  });
  const changed = isRecord(set?.changed) ? set.changed : {};
  const before = isRecord(changed.notify_manual) ? changed.notify_manual.from : undefined;
  if (before !== undefined && before !== null) {
    await c.read(
      "update_settings",
      { group: "notifications", settings: { notify_manual: String(before) } },
      "update_settings (put back)",
    );
  }
  await c.read("run_sweep", { query: CHECK_NAME, sources: ["arxiv"], max_results: 1 });
  const created = await c.read("create_routine", {
    name: CHECK_NAME,
    keywords: [CHECK_NAME],
    sources: ["arxiv"],
    schedule: "0 7 * * 1",
  });
  const routine = isRecord(created?.routine) ? created.routine : undefined;
  const id = Number.isInteger(routine?.id) ? (routine?.id as number) : undefined;
  if (id === undefined) {
    c.record({ label: "activate_routine", ok: false, note: "not called: create_routine gave no routine id" });
  } else {
    await c.read("activate_routine", { routine_id: id });
    await c.read("deactivate_routine", { routine_id: id });
    await c.read("run_routine", { routine_id: id });
  }
  await c.read("create_watch_profile", { name: "Resmon Doctor Check" });
}

async function checkToolsList(c: Checker, peer: StdioPeer, readOnly: boolean): Promise<void> {
  const expected = readOnly ? [...READ_TOOLS] : [...READ_TOOLS, ...WRITE_TOOLS];
  let names: string[] = [];
  try {
    const frame = (await peer.request("tools/list", {})).message;
    const tools = isRecord(frame.result) && Array.isArray(frame.result.tools) ? frame.result.tools : [];
    names = tools.map((t) => (isRecord(t) && typeof t.name === "string" ? t.name : ""));
  } catch (error) {
    c.record({ label: "tools/list", ok: false, note: error instanceof Error ? error.message : "no answer" });
    return;
  }
  const same = names.length === expected.length && expected.every((n) => names.includes(n));
  c.record({
    label: "tools/list",
    ok: same,
    note: same
      ? `${names.length} tools, as the contract lists${readOnly ? " for a read-only session" : ""}`
      : `lists ${names.length} tools, not the contract's ${expected.length}`,
  });
}

/** Run the check; true when every call matched. */
export async function runLiveCheck(
  options: LiveCheckOptions,
): Promise<{ ok: boolean; verdicts: CallVerdict[] }> {
  const writes = options.writes === true;
  const write = options.write;
  if (writes) {
    write("With --writes this check changes that resmon (nothing is deleted, so all of it stays):");
    for (const step of WRITE_PLAN) write(`  - ${step}`);
    write("");
  }
  const server = options.server ?? { command: process.execPath, args: [process.argv[1] ?? ""] };
  const env = { ...options.env };
  if (writes) delete env.RESMON_MCP_READ_ONLY;
  else env.RESMON_MCP_READ_ONLY = "1";
  const peer = new StdioPeer({ ...server, env, requestTimeoutMs: options.callTimeoutMs ?? 60_000 });
  const checker = new Checker(peer, options.token, write);
  try {
    await peer.request("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "resmon-mcp-doctor", version: "1" },
    });
    peer.notify("notifications/initialized");
    await checkToolsList(checker, peer, !writes);
    await checkReads(checker);
    if (writes) await checkWrites(checker);
    else for (const name of WRITE_TOOLS) await checker.refusedWrite(name);
  } catch (error) {
    checker.record({
      label: "initialize",
      ok: false,
      note: error instanceof Error ? error.message : "failed",
    });
  } finally {
    await peer.close();
  }
  const leaked =
    options.token !== "" && (peer.stdout.includes(options.token) || peer.stderr.includes(options.token));
  checker.record({
    label: "token",
    ok: !leaked,
    note: leaked ? "the token appears in what the server wrote" : "appears nowhere in stdout or stderr",
  });
  toolSummary(checker, write);
  const ok = checker.verdicts.every((v) => v.ok);
  const failed = checker.verdicts.filter((v) => !v.ok).length;
  write("");
  write(
    ok
      ? `OK: ${checker.verdicts.length} checks matched the contract.`
      : `MISMATCH: ${failed} of ${checker.verdicts.length} checks did not match the contract.`,
  );
  return { ok, verdicts: checker.verdicts };
}
