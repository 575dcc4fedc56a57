import type { Backend } from "./backend.js";
import type { Execution, Json, JsonObject, Paper, Routine, SourceOutcome } from "./model.js";

/** Python's json.dumps spacing, since resmon stores some columns as JSON text. */
export function pyJson(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) return `[${value.map(pyJson).join(", ")}]`;
  if (typeof value === "object") {
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}: ${pyJson(v)}`)
      .join(", ")}}`;
  }
  return JSON.stringify(value);
}

/** A documents row as the explorer returns it. */
export function paperRow(p: Paper): JsonObject {
  return { ...p, pub_sort: p.publication_date ?? "" };
}

/** Newest first, undated last: (publication_date DESC, id DESC) with '' for no date. */
export function byNewest(a: Paper, b: Paper): number {
  const da = a.publication_date ?? "";
  const db = b.publication_date ?? "";
  if (da !== db) return da < db ? 1 : -1;
  return b.id - a.id;
}

const COVERAGE_NOTES = [
  "A recorded non-answer means resmon could not count an answer to the query; an unreadable HTTP reply is a non-answer.",
  "Genuine empty answers are a subset of answered sources, not an additional category. Rights-filtered or unusable records do not mean no papers were found.",
  "Recorded timestamps are recording times, not proven attempt-start times. Saved terms, window and cap are requests, not proof of final provider URLs or exhausted results; a cap alone does not prove truncation.",
  "This account is generated from saved facts at read time. It does not rewrite an older report or PDF.",
];

/** resmon's zero_reason.py: the reasons that mean the source did not answer, and the label each shows. */
const DID_NOT_ANSWER: Record<string, string> = {
  missing_key: "no API key configured",
  retired: "withdrawn",
  window_unanswerable: "could not answer this window",
  upstream_failure: "did not answer",
  parse_failure: "reply unreadable",
};

function attempts(detail: JsonObject | null): string {
  const n = Number(detail?.attempts ?? 0);
  return `${n} attempt${n === 1 ? "" : "s"}`;
}

/** The sentence resmon renders for a zero (zero_reason.sentence), for the reasons the stand-in records. */
function zeroSentence(o: SourceOutcome): string {
  const d = o.zero_detail;
  switch (o.zero_reason) {
    case null:
    case "not_recorded":
      return `resmon did not record whether ${o.source} answered on this run.`;
    case "answered_empty":
      return `${o.source} answered (HTTP 200) and resmon found no records in the reply.`;
    case "upstream_failure": {
      const kind = String(d?.detail ?? "");
      const what =
        kind === "timeout"
          ? `the request timed out after ${attempts(d)}`
          : kind === "connect"
            ? `resmon could not open a connection after ${attempts(d)}`
            : d?.status
              ? `HTTP ${String(d.status)} after ${attempts(d)}`
              : `the request failed after ${attempts(d)}`;
      return `${o.source} could not be queried: ${what}. This is not a zero — the source did not answer.`;
    }
    case "parse_failure":
      return `${o.source} answered (HTTP 200), and resmon could not read the reply.`;
    case "missing_key":
      return "Selected, but the API key it requires was not configured, so this source returned nothing. It did not contribute to the search.";
    default:
      return `${o.source} returned nothing (${o.zero_reason}).`;
  }
}

interface SourceRow {
  row: JsonObject;
  category: "answered" | "non_answer" | "unknown";
  genuineEmpty: boolean;
  inPart: boolean;
}

/** One recorded outcome as resmon's coverage.outcome reads it: "answered" only where resmon can say so. */
function sourceRow(o: SourceOutcome): SourceRow {
  let category: SourceRow["category"] = "unknown";
  let label = "unknown / outcome not recorded";
  let note = "Recorded outcome is malformed or unsupported; whether this source answered is unknown.";
  const reason = o.zero_reason;
  const genuineEmpty = o.status === "ok" && o.result_count === 0 && reason === "answered_empty";
  if (o.status === "error") {
    category = "non_answer";
    label = "did not answer";
    note = `Recorded query failure: ${o.error_message ?? "unknown error"}`;
  } else if (o.status === "skipped_missing_key") {
    category = "non_answer";
    label = DID_NOT_ANSWER.missing_key as string;
    note = zeroSentence({ ...o, zero_reason: "missing_key" });
  } else if (o.status === "ok" && o.in_part) {
    category = "answered";
    label = "answered in part";
    const read = (o.zero_detail?.read ?? null) as JsonObject | null;
    note = read
      ? `Read the newest ${String(read.records_read)} of the ${String(read.records_total)} records in the window (${String(read.read_from)} to ${String(read.read_to)}); the older ones were not read.`
      : "Answered for part of the window only.";
  } else if (o.status === "ok" && o.result_count > 0) {
    category = "answered";
    label = "answered";
    note = "Recorded returned records; this is not the number newly added to the corpus.";
  } else if (o.status === "ok" && (reason === null || reason === "not_recorded")) {
    label = "zero, reason not recorded";
    note = zeroSentence(o);
  } else if (o.status === "ok" && reason !== null && reason in DID_NOT_ANSWER) {
    category = "non_answer";
    label = DID_NOT_ANSWER[reason] as string;
    note = zeroSentence(o);
  } else if (genuineEmpty) {
    category = "answered";
    label = "answered, zero";
    note = zeroSentence(o);
  }
  const row: JsonObject = {
    source: o.source,
    category,
    label,
    note,
    outcome_recorded: true,
    status: o.status,
    result_count: o.result_count,
    zero_reason: o.zero_reason,
    recorded_at: o.recorded_at,
    genuine_empty: genuineEmpty,
    in_part: o.in_part,
  };
  if (o.zero_detail) row.zero_detail = o.zero_detail;
  return { row, category, genuineEmpty, inPart: o.in_part };
}

function notRecordedRow(source: string): SourceRow {
  return {
    row: {
      source,
      category: "unknown",
      label: "unknown / outcome not recorded",
      note: "Outcome not recorded; no attempt, failure or empty answer can be inferred.",
      outcome_recorded: false,
      status: null,
      result_count: null,
      zero_reason: null,
      recorded_at: null,
      genuine_empty: false,
      in_part: false,
    },
    category: "unknown",
    genuineEmpty: false,
    inPart: false,
  };
}

export function coverage(e: Execution): { coverage: JsonObject; outcomes: JsonObject } {
  const recorded = new Map(e.sources.map((o) => [o.source, o]));
  const selected = e.selection;
  const rows: SourceRow[] = [];
  const additional: JsonObject[] = [];
  let notRecorded = 0;
  if (selected) {
    for (const s of selected) {
      const o = recorded.get(s);
      if (o) rows.push(sourceRow(o));
      else {
        rows.push(notRecordedRow(s));
        notRecorded++;
      }
    }
    for (const o of e.sources) if (!selected.includes(o.source)) additional.push(sourceRow(o).row);
  } else {
    for (const o of [...e.sources].sort((a, b) => (a.source < b.source ? -1 : 1))) rows.push(sourceRow(o));
  }
  const count = (c: SourceRow["category"]) => rows.filter((r) => r.category === c).length;
  const answered = count("answered");
  const nonAnswer = count("non_answer");
  const unknown = count("unknown");
  const inPart = rows.filter((r) => r.inPart).length;
  const genuine = rows.filter((r) => r.genuineEmpty).length;
  const basis = selected ? "selected" : "recorded";
  const unrecordedZeros = rows.filter((r) => r.row.label === "zero, reason not recorded").length;
  let summary =
    rows.length === 0
      ? "No source outcomes were recorded; the full selected set is unknown."
      : `${rows.length} ${basis} sources: ${answered} answered${inPart ? ` (${inPart} in part)` : ""}, ${nonAnswer} recorded non-answer (could not answer), ${unknown} unknown.`;
  if (unrecordedZeros) summary += ` ${unrecordedZeros} returned nothing for a reason resmon did not record.`;
  if (inPart) {
    const what = rows.filter((r) => r.inPart).map((r) => `${String(r.row.source)}: ${String(r.row.note)}`);
    summary += ` In part: ${what.join(" ")}`;
  }
  const notes = [
    selected
      ? "Source selection comes from the saved repositories list, deduplicated by exact identifier."
      : "No usable saved source selection; the full selected set is unknown.",
    ...(e.status === "completed"
      ? []
      : ["This run is not completed; its recorded coverage may be incomplete."]),
    ...COVERAGE_NOTES,
  ];
  return {
    coverage: {
      execution_id: e.id,
      basis,
      basis_label: `${basis} sources`,
      selection_known: selected !== null,
      total: rows.length,
      counts: { answered, non_answer: nonAnswer, unknown, genuine_empty: genuine, in_part: inPart },
      summary,
      sources: rows.map((r) => r.row),
      additional_sources: additional,
      notes,
    },
    outcomes: {
      selected: rows.length,
      answered,
      could_not_answer: rows.filter((r) => r.category === "non_answer" || r.row.status === "cancelled")
        .length,
      not_recorded: notRecorded + unrecordedZeros,
      sources_that_could_not_answer: rows
        .filter((r) => r.category === "non_answer" || r.row.status === "cancelled")
        .map((r) => r.row.source as string),
      in_part: inPart,
    },
  };
}

export function executionRow(backend: Backend, e: Execution, full: boolean): JsonObject {
  const { coverage: cov, outcomes } = coverage(e);
  const row: JsonObject = {
    id: e.id,
    execution_type: e.execution_type,
    routine_id: e.routine_id,
    saved_configuration_id: e.saved_configuration_id,
    parameters: e.parameters ? pyJson(e.parameters) : null,
    start_time: e.start_time,
    end_time: e.end_time,
    status: e.status,
    result_count: e.result_count,
    new_result_count: e.new_result_count,
    log_path: e.log_path,
    result_path: e.result_path,
    error_message: e.error_message,
    progress_events: e.progress_events,
    current_stage: e.current_stage,
    owner_pid: e.owner_pid,
    owner_runtime_id: e.owner_runtime_id,
    last_seen_at_utc: e.last_seen_at_utc,
    interrupted_reason: e.interrupted_reason,
    restarted_from: e.restarted_from,
    cancel_reason: e.cancel_reason,
    dedup_total: e.dedup?.total ?? null,
    dedup_new: e.dedup?.new ?? null,
    dedup_duplicates: e.dedup?.duplicates ?? null,
    dedup_invalid: e.dedup?.invalid ?? null,
    dedup_cross_source: e.dedup?.cross_source ?? null,
    request_id: e.request_id,
    saved_configuration_name: e.saved_configuration_name,
  };
  if (full) {
    const identity = backend.identity();
    if (identity !== undefined) row.identity = identity;
  }
  row.coverage = cov;
  row.query = e.query;
  row.keywords = e.keywords;
  row.repositories = e.selection;
  row.total_results = e.result_count;
  row.new_results = e.new_result_count;
  row.source_outcomes = outcomes;
  if (full) {
    row.restarted_into = [...backend.store.executions.values()]
      .filter((x) => x.restarted_from === e.id)
      .map((x) => x.id)
      .sort((a, b) => a - b);
  }
  return row;
}

export function missedFires(r: Routine): JsonObject {
  const last = [...r.missed].sort((a, b) => (a.due_at_utc < b.due_at_utc ? 1 : -1))[0];
  return { count: r.missed.length, last_due_at_utc: last ? last.due_at_utc : null };
}

export function routineRow(backend: Backend, r: Routine, detailView: boolean): JsonObject {
  const flag = (b: boolean): Json => (detailView ? b : b ? 1 : 0);
  const row: JsonObject = {
    id: r.id,
    name: r.name,
    schedule_cron: r.schedule_cron,
    parameters: pyJson(r.parameters),
    is_active: flag(r.is_active),
    email_enabled: flag(r.email_enabled),
    email_ai_summary_enabled: flag(r.email_ai_summary_enabled),
    ai_enabled: flag(r.ai_enabled),
    notify_on_complete: flag(r.notify_on_complete),
    ai_settings: r.ai_settings,
    storage_settings: r.storage_settings,
    intent: r.intent,
    execution_location: "local",
    created_at: r.created_at,
    updated_at: r.updated_at,
    last_executed_at: r.last_executed_at,
  };
  if (!detailView) {
    const runs = [...backend.store.executions.values()]
      .filter((e) => e.routine_id === r.id)
      .sort((a, b) => (a.start_time < b.start_time ? 1 : a.start_time > b.start_time ? -1 : b.id - a.id));
    row.last_execution = null;
    row.last_status = runs[0]?.status ?? null;
  }
  row.missed_fires = missedFires(r);
  if (detailView) row.missed_fire_details = r.missed.map((m) => ({ ...m }));
  return row;
}
