import type { GapQuery, RankedEntry, ScreenScore } from "@resmon/mcp-contract";
import type { StartInputs } from "./args.js";
import type { PaperRecord } from "./records.js";
import type { Shortlist } from "./shortlist.js";

/** What GET /api/documents/{id}/lifecycle told us, or that the check did not finish. */
export type LifecycleOutcome =
  | { finished: true; check_status: string | null; events: Record<string, unknown>[] }
  /** `asked: false`: no request was sent, because this resmon has no lifecycle route (error says so). */
  | { finished: false; error: string; asked?: false };

/** One sweep's coverage, as resmon's run recorded it (GET /api/executions/{id}: `coverage`, `source_outcomes`). */
export interface SweepCoverage {
  /** false: resmon's run carried no coverage at all, so every source's outcome is not_reported (never "answered"). */
  reported?: boolean;
  summary: string | null;
  /** resmon's counts (answered, non_answer, unknown, genuine_empty[, in_part]), verbatim. */
  counts?: Record<string, number> | null;
  /** Per source, resmon's own row: category, label, note, status, result_count, zero_reason…, verbatim. */
  sources: Record<string, unknown>[];
  sources_that_could_not_answer: string[];
}

/** One planned retrieval: a sweep (POST /api/search/sweep) or a corpus search, for one query of one round. */
export interface RetrievalTask {
  key: string;
  round: number;
  query_id: string;
  text: string;
  via: "sweep" | "corpus";
  /**
   * pending: not sent (or to be sent again); submitting: recorded before the POST, so a crash
   * leaves it to be reconciled with GET /api/executions; running: resmon took it; done / failed: final.
   */
  status: "pending" | "submitting" | "running" | "done" | "failed";
  attempts: number;
  request_id: string | null;
  submitted_at: string | null;
  execution_id: number | null;
  runtime_id: string | null;
  /** Waiting for an admission slot (429) since this time. */
  admission_wait_since?: string | null;
  /** A POST cut short by the wait budget: until then its run is looked for, not sent again. */
  landing_until?: string | null;
  /** When to ask for a slot again. */
  retry_at?: string | null;
  /** The Retry-After resmon sent with its last 429, in seconds (honoured up to RETRY_AFTER_CAP_MS). */
  retry_after_s?: number | null;
  error?: string | null;
  /** Rows read (doc ids in resmon's order). */
  doc_ids?: number[];
  /** corpus: the sort asked for (null: none sent, this resmon has no similarity search), the sort resmon served, and why similarity was declined or not asked. */
  sort_asked?: "similarity" | null;
  sort_served?: string | null;
  similarity_unavailable?: string | null;
  /** sweep: resmon's coverage of this run, verbatim. */
  coverage?: SweepCoverage | null;
  /**
   * sweep: the sort resmon's corpus search served when the run's rows were put in its order for the
   * query (feedback.ts, rankSweepRows), so its pages are released best first; null when it could not rank.
   */
  ranked_by?: string | null;
}

export interface Candidate {
  doc_id: number;
  merged_ids: number[];
  query_ids: string[];
  origin: "retrieval" | "expansion" | "gap";
  out_of_window: boolean;
  batch: number;
}

/** The pages released per query and the neighbours asked, round by round (feedback.ts). */
export interface FeedbackState {
  /** `round:query id` → the candidates of its latest page ([] once it stopped). */
  pages: Record<string, number[]>;
  /** `round:query id` → how many of its papers were released so far. */
  released: Record<string, number>;
  /** Papers scored 3 whose neighbours were asked. */
  seeded: number[];
  /** Each feedback round: pages deepened, seeds asked, candidates added (and which). */
  rounds: { deeper: string[]; seeds: number[]; added: number; released?: number[] }[];
  done: boolean;
  /** Each paper scored 3 → its neighbours in resmon's order (itself and its copies left out). */
  relevant?: Record<string, number[]>;
  /** Each paper scored 0 → its neighbours in resmon's order: evidence against them (feedback.ts). */
  not_relevant?: Record<string, number[]>;
}

export interface Batch {
  index: number;
  round: number;
  doc_ids: number[];
  accepted_hash: string | null;
  scores: ScreenScore[] | null;
  /** Left unscreened: the model took the offer to stop screening (state.screening_stopped). */
  skipped?: boolean;
}

/** A screening slip the model corrected before the shortlist was built: the score before and after, and why. */
export interface Correction {
  doc_id: number;
  from: { score: number; criteria_hit: string[] };
  to: { score: number; criteria_hit: string[] };
  reason: string;
  at: string;
}

/** The model took the offer to stop screening: when, why it was offered, and what was left unscreened. */
export interface ScreeningStopped {
  at: string;
  why: string;
  unscreened: number[];
}

export interface Page {
  index: number;
  doc_ids: number[];
  accepted_hash: string | null;
  entries: RankedEntry[] | null;
  /** Answered to a mutating call (the model was shown this page in full): only then may it be ranked. */
  shown?: boolean;
}

export interface BackendRestart {
  from: string | null;
  to: string;
  seen_at: string;
}

export interface ExpansionState {
  seeds: number[];
  added: number[];
  /** Seeds whose neighbour list came back empty, with resmon's reason. */
  empty: { doc_id: number; reason: string | null }[];
  failed: { doc_id: number; error: string }[];
  /** Per paper the expansion added: the seed it is nearest to and resmon's distance from it (smaller is closer). */
  nearest?: Record<string, { seed: number; distance: number | null }>;
  /** Set when nothing was asked: this resmon has no similar-papers route (the sentence says so). */
  not_asked?: string;
}

export interface GapState {
  needed: boolean;
  reasons: string[];
  queries: GapQuery[] | null;
  accepted_hash: string | null;
}

export interface Verdict {
  doc_id: number;
  basis: "resmon_record";
  /** Which of resmon's exports the record now was read from (csv: compared under its rendering). */
  record_from: RecordFrom;
  verified: boolean;
  no_record: boolean;
  record_changed: string[];
  mismatches: { field: "doi" | "title" | "year" | "author"; cited: unknown; resmon: unknown }[];
  lifecycle_unchecked: boolean;
  lifecycle_check_status: string | null;
  retraction: {
    label: string;
    notice_url: string | null;
    notice_doi: string | null;
    notice_date: string | null;
  } | null;
  record: PaperRecord | null;
}

/** json_export: the JSON export (resmon 2.3+); csv_export: the CSV export of the same ids (csv-export.ts). */
export type RecordFrom = "json_export" | "csv_export";

export interface VerifyChecks {
  /** Per ranked doc id: resmon's record now, or null when the export returned no row. */
  records: Record<string, PaperRecord | null>;
  /** Absent in a scan verified before this was recorded: the JSON export. */
  record_from?: RecordFrom;
  lifecycle: Record<string, LifecycleOutcome>;
}

/** The evidence files, by name inside the scan's directory (never a path: resolved there when read). */
export interface ScanResultFiles {
  json: "evidence.json";
  md: "evidence.md";
  bib: "evidence.bib";
}

export interface ScanState {
  version: 1;
  scan_id: string;
  inputs: StartInputs;
  inputs_hash: string;
  created_at: string;
  updated_at: string;
  runtime_id: string | null;
  restarts: BackendRestart[];
  tasks: RetrievalTask[];
  /** Round whose retrieval is under way; null once pooled. */
  retrieving: number | null;
  /** The round retrieved and found nothing at all (every task failed): start must be sent again. */
  round_failed: boolean;
  /** Per round, how often its retrievals were sent again after it failed or found nothing (at most MAX_ROUND_RETRIES). */
  retries?: Record<string, number>;
  /** A retry's retrievals are sent no sooner than this (the retry wait after it was asked for). */
  retry_at?: string | null;
  /** The wait a retry of this scan takes (the engine's retryWaitMs when the round stopped), for the offer's words. */
  retry_wait_ms?: number;
  /** Gap rounds given up after their retry failed too: the scan went on without them. */
  given_up?: number[];
  candidates: Candidate[];
  batches: Batch[];
  /** Screening spent where the scores show papers (feedback.ts); absent in scans started before it. */
  feedback?: FeedbackState;
  expansion: ExpansionState | null;
  gap: GapState | null;
  shortlist: Shortlist | null;
  /** Scores corrected before the shortlist was built. */
  corrections?: Correction[];
  screening_stopped?: ScreeningStopped | null;
  /** Papers the feedback rounds' neighbour searches added: the seed each is nearest and resmon's distance. */
  nearest?: Record<string, { seed: number; distance: number | null }>;
  /** Closed because its first round found nothing: a later scan with the same inputs is no duplicate. */
  closed_found_nothing?: boolean;
  pages: Page[];
  /** Verification under way: resmon's record now and each lifecycle outcome, kept across calls. */
  checks: VerifyChecks | null;
  verdicts: Verdict[] | null;
  files: ScanResultFiles | null;
  summary: Record<string, unknown> | null;
}

/** Records at retrieval, keyed by doc id (candidates.json, written before scan.json). */
export type RecordBook = Record<string, PaperRecord>;

const TASK_STATUSES = new Set(["pending", "submitting", "running", "done", "failed"]);

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * What is wrong with a scan.json read from disk, or null when it has the shape this engine writes.
 * Its phase is not read at all (it is derived from the rest), so a stray value there cannot matter.
 */
export function checkState(raw: unknown): string | null {
  if (!isObject(raw)) return "it is not a JSON object";
  if (raw.version !== 1) return "its version is not 1";
  if (typeof raw.scan_id !== "string") return "it has no scan_id";
  if (typeof raw.inputs_hash !== "string") return "it has no inputs_hash";
  const inputs = raw.inputs;
  if (!isObject(inputs) || !isObject(inputs.queries) || !Array.isArray(inputs.sources))
    return "its inputs are not a scan's inputs";
  if (!Array.isArray(inputs.queries.criteria) || !Array.isArray(inputs.queries.queries))
    return "its inputs are not a scan's inputs";
  for (const key of ["restarts", "tasks", "candidates", "batches", "pages"]) {
    if (!Array.isArray(raw[key])) return `its ${key} is not a list`;
  }
  for (const t of raw.tasks as unknown[]) {
    if (!isObject(t) || typeof t.key !== "string" || !TASK_STATUSES.has(t.status as string))
      return "a retrieval task in it is not one";
  }
  for (const key of ["batches", "pages"] as const) {
    for (const b of raw[key] as unknown[]) {
      if (!isObject(b) || !Array.isArray(b.doc_ids)) return `an entry of its ${key} is not one`;
    }
  }
  if (!(raw.retrieving === null || typeof raw.retrieving === "number"))
    return "its retrieving is not a round";
  if (typeof raw.round_failed !== "boolean") return "its round_failed is not true or false";
  for (const key of ["expansion", "gap", "shortlist", "checks", "files", "summary"]) {
    if (!(raw[key] === null || isObject(raw[key]))) return `its ${key} is not an object`;
  }
  if (!(raw.verdicts === null || Array.isArray(raw.verdicts))) return "its verdicts is not a list";
  return null;
}
