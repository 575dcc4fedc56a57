/** The testkit's in-memory store: resmon's rows, kept the way the routes read them. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export interface Paper {
  id: number;
  source_repository: string;
  external_id: string;
  doi: string | null;
  title: string;
  authors: string;
  abstract: string | null;
  publication_date: string | null;
  url: string;
  categories: string;
  metadata_hash: string;
  first_seen_at: string;
}

export type SourceStatus = "ok" | "error" | "skipped_missing_key" | "cancelled";

export interface SourceOutcome {
  source: string;
  status: SourceStatus;
  result_count: number;
  zero_reason: string | null;
  zero_detail: JsonObject | null;
  in_part: boolean;
  error_message: string | null;
  recorded_at: string;
  /** What the source's requests carried, for the search record. */
  sent: string[];
}

export type ExecutionStatus = "running" | "completed" | "failed" | "cancelled" | "interrupted";

export interface Execution {
  id: number;
  execution_type: string;
  routine_id: number | null;
  saved_configuration_id: number | null;
  saved_configuration_name: string | null;
  parameters: JsonObject | null;
  start_time: string;
  end_time: string | null;
  status: ExecutionStatus;
  result_count: number;
  new_result_count: number;
  log_path: string | null;
  result_path: string | null;
  error_message: string | null;
  progress_events: string | null;
  current_stage: string | null;
  owner_pid: number | null;
  owner_runtime_id: string | null;
  last_seen_at_utc: string | null;
  interrupted_reason: "owner_dead" | "daemon_restart" | "unknown" | null;
  restarted_from: number | null;
  cancel_reason: string | null;
  dedup: { total: number; new: number; duplicates: number; invalid: number; cross_source: number } | null;
  request_id: string | null;
  /** The saved source selection, when the run kept one. */
  selection: string[] | null;
  sources: SourceOutcome[];
  document_ids: number[];
  new_document_ids: number[];
  query: string | null;
  keywords: string[] | null;
  date_from: string | null;
  date_to: string | null;
  max_results: number | null;
}

export interface MissedFire {
  id: number;
  routine_id: number;
  due_at_utc: string;
  observed_at_utc: string;
  disposition: string;
}

export type Channel = "email" | "folder" | "webhook" | "feed";

export interface DeliveryTarget {
  id: number;
  channel: Channel;
  enabled: boolean;
  snapshot: string;
}

export interface Delivery {
  id: number;
  execution_id: number;
  target_id: number;
  channel: Channel;
  target_snapshot: string;
  state: "queued" | "awaiting_review" | "delivering" | "delivered" | "failed" | "skipped";
  attempts: number;
  next_attempt_at_utc: string | null;
  last_error: string | null;
  artifact_sha256: string | null;
  queued_at_utc: string;
  delivered_at_utc: string | null;
}

export interface Routine {
  id: number;
  name: string;
  schedule_cron: string;
  parameters: JsonObject;
  is_active: boolean;
  email_enabled: boolean;
  email_ai_summary_enabled: boolean;
  ai_enabled: boolean;
  notify_on_complete: boolean;
  ai_settings: string | null;
  storage_settings: string | null;
  intent: string | null;
  created_at: string;
  updated_at: string;
  last_executed_at: string | null;
  missed: MissedFire[];
  targets: DeliveryTarget[];
  deliveries: Delivery[];
}

export interface Profile {
  id: number;
  kind: string;
  display_name: string;
  names: { value: string; script: string }[];
  identifiers: JsonObject;
  affiliations: string[];
  field_hints: string[];
  notes: string | null;
  created_at: string;
  updated_at: string;
}

export type Basis = "identifier" | "affiliation" | "name_only";

export interface ProfileMatch {
  profile_id: number;
  document_id: number;
  basis: Basis;
  matched_author: string;
  evidence: string | null;
  first_seen_at: string;
}

export interface LifecycleEvent {
  document_id: number;
  kind: string;
  severity: string;
  notice_key: string;
  label: string;
  notice_doi: string | null;
  notice_url: string | null;
  notice_date: string | null;
  detail: string | null;
  provider: string;
  provider_source: string | null;
  first_seen_at: string;
}

export interface Lifecycle {
  events: LifecycleEvent[];
  checked_at: string | null;
  check_status: string | null;
}

export interface WatchdogFinding {
  key: string;
  severity: "broken" | "unusual" | "advice" | "withdrawn";
  kind: string;
  scope: JsonObject;
  title: string;
  detail: string;
  what_to_do: string;
  evidence: JsonObject;
  muted: boolean;
}

export type SettingValue = string | boolean;

export interface Store {
  papers: Paper[];
  paperById: Map<number, Paper>;
  /** Ids of papers that carry a vector; the vectors themselves are derived on demand. */
  embedded: Set<number>;
  routines: Map<number, Routine>;
  executions: Map<number, Execution>;
  profiles: Map<number, Profile>;
  matches: ProfileMatch[];
  lifecycle: Map<number, Lifecycle>;
  findings: WatchdogFinding[];
  settings: Record<string, Record<string, SettingValue>>;
  next: { routine: number; execution: number; profile: number; missedFire: number; delivery: number };
  /** The clock the seeded data is written against (no Date.now in seeded rows). */
  seedNow: string;
}
