import type { StartInputs } from "./args.js";
import type { SweepCoverage } from "./coverage.js";
import type { PaperRecord } from "./records.js";
import type { GapQuery, RankedEntry, ScanPhase, ScreenScore } from "./types.js";
import type { LifecycleOutcome } from "./verify.js";

export type { SweepCoverage };

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
  /** When to ask for a slot again. */
  retry_at?: string | null;
  error?: string | null;
  /** Rows read (doc ids in resmon's order). */
  doc_ids?: number[];
  /** corpus: the sort resmon served, and why similarity was declined if it was. */
  sort_served?: string | null;
  similarity_unavailable?: string | null;
  /** sweep: resmon's coverage of this run, verbatim. */
  coverage?: SweepCoverage | null;
}

export interface Candidate {
  doc_id: number;
  merged_ids: number[];
  query_ids: string[];
  origin: "retrieval" | "expansion" | "gap";
  out_of_window: boolean;
  batch: number;
}

export interface Batch {
  index: number;
  round: number;
  doc_ids: number[];
  accepted_hash: string | null;
  scores: ScreenScore[] | null;
}

export interface Page {
  index: number;
  doc_ids: number[];
  accepted_hash: string | null;
  entries: RankedEntry[] | null;
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

export interface VerifyChecks {
  /** Per ranked doc id: resmon's record now, or null when the export returned no row. */
  records: Record<string, PaperRecord | null>;
  lifecycle: Record<string, LifecycleOutcome>;
}

export interface ScanResultFiles {
  json: string;
  md: string;
  bib: string;
}

export interface ScanState {
  version: 1;
  scan_id: string;
  inputs: StartInputs;
  inputs_hash: string;
  created_at: string;
  updated_at: string;
  phase: ScanPhase;
  runtime_id: string | null;
  restarts: BackendRestart[];
  tasks: RetrievalTask[];
  /** Round whose retrieval is under way; null once pooled. */
  retrieving: number | null;
  /** The round retrieved and found nothing at all (every task failed): start must be sent again. */
  round_failed: boolean;
  candidates: Candidate[];
  batches: Batch[];
  expansion: ExpansionState | null;
  gap: GapState | null;
  shortlist: { in_window: number[]; outside: number[] } | null;
  pages: Page[];
  /** Verification under way: resmon's record now and each lifecycle outcome, kept across calls. */
  checks: VerifyChecks | null;
  verdicts: Verdict[] | null;
  files: ScanResultFiles | null;
  summary: Record<string, unknown> | null;
}

/** Records at retrieval, keyed by doc id (candidates.json, written before scan.json). */
export type RecordBook = Record<string, PaperRecord>;
