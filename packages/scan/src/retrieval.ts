import { randomUUID } from "node:crypto";
import { ToolError } from "@resmon/mcp-contract";
import { windowDates } from "./args.js";
import { BudgetSpent } from "./backend.js";
import type { Call } from "./call.js";
import { roundFoundNothing, sweepCoverageOf } from "./coverage.js";
import { atStage } from "./errors.js";
import {
  corpusSearch,
  executionRecords,
  getExecution,
  listSweeps,
  runtimeIdOf,
  submitSweep,
} from "./resmon.js";
import type { RetrievalTask, ScanState } from "./state.js";

type Row = Record<string, unknown>;

/** The tasks of one round: one sweep and/or one corpus search per query. */
export function planTasks(
  round: number,
  queries: readonly { id: string; text: string }[],
  retrieval: ScanState["inputs"]["retrieval"],
): RetrievalTask[] {
  const vias: RetrievalTask["via"][] = retrieval === "both" ? ["sweep", "corpus"] : [retrieval];
  return queries.flatMap((q) =>
    vias.map((via) => ({
      key: `${round}:${q.id}:${via}`,
      round,
      query_id: q.id,
      text: q.text,
      via,
      status: "pending" as const,
      attempts: 0,
      request_id: null,
      submitted_at: null,
      execution_id: null,
      runtime_id: null,
    })),
  );
}

/**
 * The backend's runtime id against the stored one: a change is recorded (backend_restarted) and the
 * round under way is read again, never silently mixed with the old backend's runs.
 */
export async function checkRuntime(call: Call): Promise<void> {
  const id = await runtimeIdOf(call);
  const state = call.state;
  if (id === null || id === state.runtime_id) return;
  if (state.runtime_id !== null) {
    state.restarts.push({ from: state.runtime_id, to: id, seen_at: call.now().toISOString() });
    for (const t of state.tasks) {
      if (t.round !== state.retrieving || t.via !== "sweep") continue;
      // A run of the old backend that had not finished was interrupted by the restart: send it again.
      if (t.status === "running") resetTask(t);
      // Finished runs are read again from the new backend.
      if (t.status === "done") t.status = "running";
    }
  }
  state.runtime_id = id;
  call.save();
}

function resetTask(t: RetrievalTask): void {
  t.status = "pending";
  t.execution_id = null;
  t.request_id = null;
  t.submitted_at = null;
  t.error = null;
  t.landing_until = null;
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && [...a].sort().join("\u0000") === [...b].sort().join("\u0000");
}

function parametersOf(row: Row): Row {
  if (typeof row.parameters !== "string") return {};
  try {
    return JSON.parse(row.parameters) as Row;
  } catch {
    return {};
  }
}

/**
 * A sweep left "submitting" (its POST may have reached resmon before a crash): find its run in
 * GET /api/executions — by request id, else by query, sources and start time — so it is never started twice.
 */
export async function reconcile(call: Call, task: RetrievalTask): Promise<void> {
  const rows = await listSweeps(call);
  const claimed = new Set(call.state.tasks.map((t) => t.execution_id).filter((id) => id !== null));
  const since = task.submitted_at ? Date.parse(task.submitted_at) - 2000 : 0;
  const sources = call.state.inputs.sources;
  const candidates = rows.filter((row) => typeof row.id === "number" && !claimed.has(row.id as number));
  const byRequest = candidates.find((row) => task.request_id !== null && row.request_id === task.request_id);
  const byShape = candidates
    .filter((row) => {
      const params = parametersOf(row);
      const query = typeof row.query === "string" ? row.query : params.query;
      const repos = Array.isArray(row.repositories) ? row.repositories : params.repositories;
      const started = Date.parse(String(row.start_time ?? ""));
      return (
        query === task.text &&
        Array.isArray(repos) &&
        sameSet(repos.map(String), sources) &&
        Number.isFinite(started) &&
        started >= since
      );
    })
    .sort((a, b) => (a.id as number) - (b.id as number))[0];
  const match = byRequest ?? byShape;
  if (match) {
    task.status = "running";
    task.execution_id = match.id as number;
    task.runtime_id = call.state.runtime_id;
    task.landing_until = null;
    task.error = null;
  } else if (task.landing_until && Date.parse(task.landing_until) > Date.now()) {
    // A POST this scan cut short may still land in resmon: look again before sending it again.
    return;
  } else {
    // The POST never reached resmon: it is safe to send.
    resetTask(task);
  }
  call.save();
}

/**
 * How long after a sweep POST cut short by the wait budget its run is looked for before the sweep is
 * sent again: resmon may still take a request whose answer nobody waited for.
 */
export const LANDING_GRACE_MS = 15_000;

/** The longest a 429's Retry-After is honoured: a longer ask waits this long, then asks again. */
export const RETRY_AFTER_CAP_MS = 10 * 60_000;
/** When a 429 names no Retry-After. */
const DEFAULT_RETRY_AFTER_MS = 2_000;

/** The execution ids this scan's other tasks already hold: a sweep answered with one of them is not a new run. */
function claimedIds(state: ScanState, except: RetrievalTask): Set<number> {
  return new Set(
    state.tasks.filter((t) => t !== except && t.execution_id !== null).map((t) => t.execution_id as number),
  );
}

async function submit(call: Call, task: RetrievalTask): Promise<void> {
  if (task.retry_at && Date.parse(task.retry_at) > Date.now()) return;
  const inputs = call.state.inputs;
  task.status = "submitting";
  task.request_id = randomUUID();
  // Wall-clock time: reconciliation compares it with resmon's start times.
  task.submitted_at = new Date().toISOString();
  task.attempts++;
  call.save();
  let outcome: Awaited<ReturnType<typeof submitSweep>>;
  try {
    outcome = await submitSweep(call, {
      query: task.text,
      repositories: inputs.sources,
      max_results: inputs.per_query,
      ...windowDates(inputs),
      request_id: task.request_id,
    });
  } catch (error) {
    if (error instanceof BudgetSpent && !error.sent) {
      // The budget ran out before the POST went: pending again, sent by the next call at once (it
      // waited out LANDING_GRACE_MS for a POST that could not land).
      resetTask(task);
      task.attempts--;
    } else if (error instanceof BudgetSpent) {
      // Left "submitting"; reconciled once its run is listed, or sent again after the grace.
      task.landing_until = new Date(Date.now() + LANDING_GRACE_MS).toISOString();
      task.error = "the sweep POST was cut short by the call's wait budget";
    }
    throw error;
  }
  switch (outcome.kind) {
    case "admitted":
      if (claimedIds(call.state, task).has(outcome.execution_id)) {
        // Left "submitting": the next call reconciles it with resmon's list of runs by its request id.
        task.error = `resmon answered the sweep with execution ${outcome.execution_id}, which is another run of this scan.`;
        call.save();
        throw new ToolError(
          "upstream_error",
          `resmon answered a new sweep with execution ${outcome.execution_id}, a run this scan already holds, so the answer was not used. Poll with scan_continue: the sweep is matched with resmon's list of runs, never sent twice.`,
          {
            stage: "retrieve",
            reason: "execution_id_reused",
            execution_id: outcome.execution_id,
            next_action: "await_retrieval",
          },
        );
      }
      task.status = "running";
      task.execution_id = outcome.execution_id;
      task.runtime_id = call.state.runtime_id;
      task.admission_wait_since = null;
      task.retry_at = null;
      task.retry_after_s = null;
      break;
    case "busy":
      // resmon's run slots are full (429): ask again when its Retry-After says (up to the cap), never fail the scan.
      resetTask(task);
      task.admission_wait_since ??= call.now().toISOString();
      task.retry_after_s = outcome.retryAfterS ?? null;
      task.retry_at = new Date(
        Date.now() +
          Math.min(
            outcome.retryAfterS === undefined ? DEFAULT_RETRY_AFTER_MS : outcome.retryAfterS * 1000,
            RETRY_AFTER_CAP_MS,
          ),
      ).toISOString();
      break;
    case "uncertain":
      // Left "submitting": reconciled against GET /api/executions before anything is sent again.
      task.error = outcome.message;
      break;
    case "refused":
      task.status = "failed";
      task.error = outcome.message;
      break;
    case "unreachable":
      resetTask(task);
      call.save();
      throw outcome.error;
  }
  call.save();
}

async function poll(call: Call, task: RetrievalTask): Promise<void> {
  if (task.execution_id === null) {
    resetTask(task);
    return;
  }
  const row = await getExecution(call, task.execution_id);
  if (row === null) {
    task.status = "failed";
    task.error = `resmon has no execution ${task.execution_id}.`;
    call.save();
    return;
  }
  const status = String(row.status ?? "");
  if (status === "running" || status === "queued" || status === "pending") return;
  if (status === "completed") {
    const records = await executionRecords(call, task.execution_id);
    call.remember(records);
    task.doc_ids = records.map((r) => r.id);
    task.coverage = sweepCoverageOf(row);
    task.status = "done";
    task.error = null;
  } else if (status === "interrupted" && row.interrupted_reason === "daemon_restart") {
    // The backend restarted under this run: record the restart and send the sweep again.
    await call.recheckRuntime();
    if (task.status === "running") resetTask(task);
  } else {
    task.status = "failed";
    task.coverage = sweepCoverageOf(row);
    const why = row.error_message ?? row.interrupted_reason ?? row.cancel_reason ?? status;
    task.error = `execution ${task.execution_id} ended ${status}: ${String(why)}`;
  }
  call.save();
}

async function searchCorpus(call: Call, task: RetrievalTask): Promise<void> {
  const inputs = call.state.inputs;
  task.attempts++;
  try {
    // A resmon without similarity search declares no sort: none is sent, and the task says why.
    const lack = (await call.serves("retrieve")).similarity_search;
    const page = await corpusSearch(
      call,
      { query: task.text, sources: inputs.sources, ...windowDates(inputs) },
      inputs.per_query,
      lack === null,
    );
    call.remember(page.records);
    task.doc_ids = page.records.map((r) => r.id);
    task.sort_asked = lack === null ? "similarity" : null;
    task.sort_served = page.sort;
    task.similarity_unavailable = page.similarity_unavailable ?? lack?.message ?? null;
    task.status = "done";
    task.error = null;
  } catch (error) {
    if (!(error instanceof ToolError) || error.code === "backend_unavailable") throw error;
    task.status = "failed";
    task.error = error.message;
  }
  call.save();
}

function isFinal(task: RetrievalTask): boolean {
  return task.status === "done" || task.status === "failed";
}

/**
 * One pass over the round's tasks. True when all are final. The call's wait budget ends it where it
 * stands (BudgetSpent from the request under way: what is recorded is saved and the next call goes
 * on), but the call's first request always gets its time, so every call advances.
 */
export async function retrievalPass(call: Call, round: number): Promise<boolean> {
  call.working({ kind: "retrieve", round });
  const tasks = call.state.tasks.filter((t) => t.round === round);
  // A retry asked for waits for its time (retry_at) before anything of the round is sent again.
  const waiting = Boolean(call.state.retry_at && Date.parse(call.state.retry_at) > Date.now());
  for (const task of tasks) {
    if (waiting && task.status === "pending") continue;
    if (task.via === "corpus") {
      if (task.status === "pending") await searchCorpus(call, task);
      continue;
    }
    // A sweep's rows come through the JSON export with ids: on a resmon without it nothing is sent.
    const lack = isFinal(task) ? null : (await call.serves("retrieve")).json_export;
    if (lack) throw atStage(lack, "retrieve");
    if (task.status === "submitting") await reconcile(call, task);
    if (task.status === "pending") await submit(call, task);
    else if (task.status === "running") {
      await poll(call, task);
      // One of our own runs just gave its admission slot back: ask again now rather than after Retry-After.
      if (isFinal(task)) for (const t of tasks) t.retry_at = null;
    }
  }
  return tasks.every(isFinal);
}

/**
 * The retry of a round in which nothing finished: send again only what did not finish. After a first
 * round that found nothing with no source recorded as answering, its sweeps are sent again too. The
 * retry is counted (a round is retried at most MAX_ROUND_RETRIES times) and waits until `at`.
 */
export function resubmitUnfinished(state: ScanState, at: Date): void {
  const round = state.retrieving;
  if (round === null) return;
  const again = round === 0 && roundFoundNothing(state.tasks, state.inputs.sources);
  for (const t of state.tasks) {
    if (t.round !== round) continue;
    if (t.status === "failed" || (again && t.via === "sweep")) resetTask(t);
  }
  state.round_failed = false;
  state.retries = { ...state.retries, [String(round)]: (state.retries?.[String(round)] ?? 0) + 1 };
  state.retry_at = at.toISOString();
}
