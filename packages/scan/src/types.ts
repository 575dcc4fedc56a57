/** The scan tools' argument and envelope shapes (agreed in SCAN-INTERFACE.md; the contract's zod schemas infer to these). */

export type QueryKind =
  | "direct"
  | "terminology"
  | "contradictory"
  | "review"
  | "mechanism"
  | "adjacent"
  | "method";
export interface Criterion {
  id: string;
  text: string;
}
export interface PlannedQuery {
  id: string;
  kind: QueryKind;
  text: string;
  must_not?: string[];
}
export interface QueryPlan {
  criteria: Criterion[];
  queries: PlannedQuery[];
}
export interface ScanStartArgs {
  scan_id: string;
  brief: string;
  queries: QueryPlan;
  sources: string[];
  retrieval?: "sweep" | "corpus" | "both";
  profile?: "quick" | "standard" | "deep";
  top?: number;
  foundational?: number;
  since?: string;
  until?: string;
  max_candidates?: number;
  per_query?: number;
  force_gap_round?: boolean;
}
export interface ScreenScore {
  doc_id: number;
  score: 0 | 1 | 2 | 3;
  criteria_hit: string[];
  reason?: string;
}
export interface GapQuery {
  text: string;
  criterion: string;
  kind?: QueryKind;
}
export interface Cite {
  doi?: string;
  title?: string;
  year?: number;
  first_author?: string;
}
export interface RankedEntry {
  doc_id: number;
  rank: number;
  role?: "core" | "review" | "contradicting" | "foundational";
  why?: string;
  cite?: Cite;
}
export interface ScanContinueArgs {
  scan_id: string;
  screen_scores?: ScreenScore[];
  gap_queries?: GapQuery[];
  ranked_entries?: RankedEntry[];
}
export interface ScanVerifyArgs {
  scan_id: string;
  ranked_entries?: RankedEntry[];
}
export interface ScanResultArgs {
  scan_id: string;
  include_markdown?: boolean;
}

export type ScanPhase = "retrieve" | "screen" | "gap" | "rank" | "complete";
export type NextAction =
  | "await_retrieval"
  | "retry_start"
  | "screen_candidates"
  | "write_gap_queries"
  | "rank_shortlist"
  | "verify_ranked"
  | "complete";
export interface ScanEnvelope {
  scan_id: string;
  phase: ScanPhase;
  status: "ok";
  next_action: NextAction;
  /** Counts a person can read; backend_restarted when seen. */
  progress: Record<string, unknown>;
  /** What the next decision needs. */
  payload: Record<string, unknown>;
  replayed?: true;
}
