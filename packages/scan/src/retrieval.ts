import { randomUUID } from "node:crypto";
import type { ResmonClient } from "@resmon/api-client";
import { windowDates } from "./args.js";
import type { Call } from "./call.js";
import { roundFoundNothing, sweepCoverageOf } from "./coverage.js";
import { ScanError } from "./errors.js";
import {
  corpusSearch,
  executionRecords,
  failure,
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
export async function checkRuntime(call: Call, client: ResmonClient): Promise<void> {
  const id = await runtimeIdOf(client);
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
export async function reconcile(call: Call, client: ResmonClient, task: RetrievalTask): Promise<void> {
  const rows = await listSweeps(client);
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
  } else {
    // The POST never reached resmon: it is safe to send.
    resetTask(task);
  }
  call.save();
}

async function submit(call: Call, client: ResmonClient, task: RetrievalTask): Promise<void> {
  if (task.retry_at && Date.parse(task.retry_at) > Date.now()) return;
  const inputs = call.state.inputs;
  task.status = "submitting";
  task.request_id = randomUUID();
  // Wall-clock time: reconciliation compares it with resmon's start times.
  task.submitted_at = new Date().toISOString();
  task.attempts++;
  call.save();
  const outcome = await submitSweep(client, {
    query: task.text,
    repositories: inputs.sources,
    max_results: inputs.per_query,
    ...windowDates(inputs),
    request_id: task.request_id,
  });
  switch (outcome.kind) {
    case "admitted":
      task.status = "running";
      task.execution_id = outcome.execution_id;
      task.runtime_id = call.state.runtime_id;
      task.admission_wait_since = null;
      task.retry_at = null;
      break;
    case "busy":
      // resmon's run slots are full (429): wait for a slot within the budget, never fail the scan.
      resetTask(task);
      task.admission_wait_since ??= call.now().toISOString();
      task.retry_at = new Date(
        Date.now() + Math.min(outcome.retryAfterMs, Math.max(call.pollMs, 250)),
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
      throw failure(outcome.error, "retrieve", "the sweep");
  }
  call.save();
}

async function poll(call: Call, client: ResmonClient, task: RetrievalTask): Promise<void> {
  if (task.execution_id === null) {
    resetTask(task);
    return;
  }
  const res = await getExecution(client, task.execution_id);
  if (!res.ok) {
    if (res.error.kind === "http" && res.error.status === 404) {
      task.status = "failed";
      task.error = `resmon has no execution ${task.execution_id}.`;
      call.save();
      return;
    }
    throw failure(res.error, "retrieve", `the progress of execution ${task.execution_id}`);
  }
  const row = res.row;
  const status = String(row.status ?? "");
  if (status === "running" || status === "queued" || status === "pending") return;
  if (status === "completed") {
    const records = await executionRecords(client, task.execution_id);
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

async function searchCorpus(call: Call, client: ResmonClient, task: RetrievalTask): Promise<void> {
  const inputs = call.state.inputs;
  task.attempts++;
  try {
    const page = await corpusSearch(
      client,
      { query: task.text, sources: inputs.sources, ...windowDates(inputs) },
      inputs.per_query,
    );
    call.remember(page.records);
    task.doc_ids = page.records.map((r) => r.id);
    task.sort_served = page.sort;
    task.similarity_unavailable = page.similarity_unavailable;
    task.status = "done";
    task.error = null;
  } catch (error) {
    if (!(error instanceof ScanError) || error.code === "backend_unavailable") throw error;
    task.status = "failed";
    task.error = error.message;
  }
  call.save();
}

function isFinal(task: RetrievalTask): boolean {
  return task.status === "done" || task.status === "failed";
}

/** One full pass over the round's tasks (even past the deadline, so every call advances). True when all are final. */
export async function retrievalPass(call: Call, round: number): Promise<boolean> {
  const client = await call.resmon();
  const tasks = call.state.tasks.filter((t) => t.round === round);
  for (const task of tasks) {
    if (task.via === "corpus") {
      if (task.status === "pending") await searchCorpus(call, client, task);
      continue;
    }
    if (task.status === "submitting") await reconcile(call, client, task);
    if (task.status === "pending") await submit(call, client, task);
    else if (task.status === "running") {
      await poll(call, client, task);
      // One of our own runs just gave its admission slot back: ask again now rather than after Retry-After.
      if (isFinal(task)) for (const t of tasks) t.retry_at = null;
    }
  }
  return tasks.every(isFinal);
}

/**
 * After a round in which nothing finished: send again only what did not finish. After a first round
 * that found nothing with no source recorded as answering, its sweeps are sent again too.
 */
export function resubmitUnfinished(state: ScanState): void {
  const again = state.retrieving === 0 && roundFoundNothing(state.tasks, state.inputs.sources);
  for (const t of state.tasks) {
    if (t.round !== state.retrieving) continue;
    if (t.status === "failed" || (again && t.via === "sweep")) resetTask(t);
  }
  state.round_failed = false;
}
