import type { SourceOutcome } from "./model.js";

/**
 * What a source does when a run asks it, as resmon records it (its zero_reason.py and coverage.py):
 * - answer: it answers; a query that matches nothing is an answered zero (`answered_empty`, genuine empty);
 * - empty: it answers and has nothing, whatever the corpus holds (`answered_empty`);
 * - no_answer: it did not answer, and resmon recorded that (`upstream_failure`, HTTP 503): a non-answer;
 * - unrecorded: it returned nothing and resmon did not record why (ok / 0 / no zero_reason): unknown;
 * - missing: resmon recorded no outcome for it at all: unknown, "outcome not recorded".
 */
export const SOURCE_MODES = ["answer", "empty", "no_answer", "unrecorded", "missing"] as const;
export type SourceMode = (typeof SOURCE_MODES)[number];

interface ModeRule {
  source: string;
  mode: SourceMode;
  /** Runs still to be steered (undefined: until switched off). */
  remaining: number | undefined;
}

/** Per-source outcome modes, for the next N runs that ask the source or until switched off. "*" is every source. */
export class SourceModes {
  private rules: ModeRule[] = [];

  /** null switches the source's rule off; "answer" for one source overrides a rule for every source. */
  set(source: string, mode: SourceMode | null, opts: { times?: number } = {}): void {
    this.rules = this.rules.filter((r) => r.source !== source);
    if (mode !== null) this.rules.push({ source, mode, remaining: opts.times });
  }

  clear(): void {
    this.rules = [];
  }

  /** The mode of each selected source for one run; each rule used is spent once for the run. */
  take(selection: readonly string[]): Map<string, SourceMode> {
    const used = new Set<ModeRule>();
    const out = new Map<string, SourceMode>();
    for (const source of selection) {
      const rule = this.rules.find((r) => r.source === source) ?? this.rules.find((r) => r.source === "*");
      if (!rule) continue;
      used.add(rule);
      out.set(source, rule.mode);
    }
    for (const rule of used) {
      if (rule.remaining === undefined) continue;
      rule.remaining--;
      if (rule.remaining <= 0) this.rules = this.rules.filter((r) => r !== rule);
    }
    return out;
  }
}

/** The upstream failure a no_answer source records (what resmon's client records for a 503 after its retries). */
export const NO_ANSWER_DETAIL = { detail: "http", status: 503, attempts: 3 } as const;

/** A source's recorded outcome under a mode that is not "answer" (null: resmon recorded nothing). */
export function steeredOutcome(
  source: string,
  mode: Exclude<SourceMode, "answer">,
  recordedAt: string,
  sent: string[],
): SourceOutcome | null {
  if (mode === "missing") return null;
  return {
    source,
    status: "ok",
    result_count: 0,
    zero_reason: mode === "empty" ? "answered_empty" : mode === "no_answer" ? "upstream_failure" : null,
    zero_detail: mode === "no_answer" ? { ...NO_ANSWER_DETAIL } : null,
    in_part: false,
    error_message: null,
    recorded_at: recordedAt,
    sent,
  };
}
