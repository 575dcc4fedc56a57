import type { Criterion, PlannedQuery, ToolArgs } from "@resmon/mcp-contract";
import { canonicalJson, hashOf } from "./canonical.js";
import { invalidArgument } from "./errors.js";
import { PROFILES, type ProfileName } from "./profile.js";

/**
 * The scan's arguments arrive parsed by the contract's rows (types, ranges, patterns, the plan's
 * counts and kinds, foundational ≤ top, since ≤ until). What is left here is what the rows do not
 * say: text that is only blanks, ids used twice, the longest lists and the largest depths the scan
 * takes, each refused naming its field; and the defaults filled in, for storing and hashing.
 */

/** The parsed start arguments with every default filled in: what is stored and hashed. */
export interface StartInputs {
  brief: string;
  queries: { criteria: Criterion[]; queries: Required<PlannedQuery>[] };
  sources: string[];
  retrieval: "sweep" | "corpus" | "both";
  profile: ProfileName;
  top: number;
  foundational: number;
  since: string | null;
  until: string | null;
  max_candidates: number;
  per_query: number;
  force_gap_round: boolean;
}

type StartArgs = ToolArgs<"scan_start">;

function atMost(value: number, field: string, max: number): number {
  if (value > max) throw invalidArgument(field, `${field} must be an integer from 1 to ${max}.`);
  return value;
}

function text(value: string, field: string): string {
  if (value.trim().length === 0) throw invalidArgument(field, `${field} must be a non-empty string.`);
  return value;
}

function checkPlan({ criteria, queries }: StartArgs["queries"]): StartInputs["queries"] {
  const criterionIds = new Set<string>();
  for (const [i, c] of criteria.entries()) {
    if (criterionIds.has(c.id)) {
      throw invalidArgument(`queries.criteria[${i}].id`, "Criterion ids are distinct, C1 to C6.");
    }
    criterionIds.add(c.id);
    text(c.text, `queries.criteria[${i}].text`);
  }
  const queryIds = new Set<string>();
  const out: Required<PlannedQuery>[] = [];
  for (const [i, q] of queries.entries()) {
    const id = text(q.id, `queries.queries[${i}].id`);
    if (queryIds.has(id)) throw invalidArgument(`queries.queries[${i}].id`, `Query id ${id} is used twice.`);
    queryIds.add(id);
    const mustNot = q.must_not ?? [];
    checkListLength(mustNot, `queries.queries[${i}].must_not`, "must_not");
    if (mustNot.some((t) => t.trim() === "")) {
      throw invalidArgument(`queries.queries[${i}].must_not`, "must_not is a list of non-empty strings.");
    }
    out.push({ id, kind: q.kind, text: text(q.text, `queries.queries[${i}].text`), must_not: [...mustNot] });
  }
  return { criteria: criteria.map((c) => ({ id: c.id, text: c.text })), queries: out };
}

/**
 * The longest list each scan input may be (beyond these nothing useful is left: resmon has a few
 * dozen sources, a batch 25 items, a shortlist at most 52): refused before anything is written or
 * sent, so a 20,000-slug list cannot leave a scan stuck.
 */
export const LIST_LIMITS = {
  sources: 64,
  must_not: 32,
  screen_scores: 100,
  criteria_hit: 12,
  ranked_entries: 200,
  gap_queries: 8,
} as const;

/** invalid_argument naming `field` when `value` is a list longer than its limit. */
export function checkListLength(value: unknown, field: string, limit: keyof typeof LIST_LIMITS): void {
  const max = LIST_LIMITS[limit];
  if (Array.isArray(value) && value.length > max) {
    throw invalidArgument(field, `${field} holds ${value.length} items; at most ${max} are taken.`, {
      max_items: max,
    });
  }
}

/** The start arguments (scan_id excluded) with every default filled in, after the checks the row cannot make. */
export function normalizeStart(args: StartArgs): StartInputs {
  const brief = text(args.brief, "brief");
  const queries = checkPlan(args.queries);
  checkListLength(args.sources, "sources", "sources");
  const sources = [...new Set(args.sources.map((s, i) => text(s, `sources[${i}]`).trim()))].sort();
  const profileName = args.profile ?? "standard";
  const profile = PROFILES[profileName];
  const top = args.top ?? 10;
  return {
    brief,
    queries,
    sources,
    retrieval: args.retrieval ?? "sweep",
    profile: profileName,
    top,
    foundational: args.foundational ?? Math.min(2, top),
    since: args.since ?? null,
    until: args.until ?? null,
    max_candidates:
      args.max_candidates === undefined
        ? profile.poolCap(queries.queries.length)
        : atMost(args.max_candidates, "max_candidates", 5000),
    per_query: args.per_query === undefined ? profile.depth : atMost(args.per_query, "per_query", 500),
    force_gap_round: args.force_gap_round ?? false,
  };
}

export function inputsHash(inputs: StartInputs): string {
  return hashOf(inputs);
}

/** Names (never values) of the arguments whose defaulted values differ. */
export function differingArguments(stored: StartInputs, sent: StartInputs): string[] {
  const keys = Object.keys(stored) as (keyof StartInputs)[];
  return keys.filter((k) => canonicalJson(stored[k]) !== canonicalJson(sent[k]));
}

/** The window as resmon's sweep and explorer take it: first day of `since`, last day of `until`. */
export function windowDates(inputs: Pick<StartInputs, "since" | "until">): {
  date_from: string | null;
  date_to: string | null;
} {
  const date_from = inputs.since ? `${inputs.since}-01` : null;
  let date_to: string | null = null;
  if (inputs.until) {
    const [y, m] = inputs.until.split("-").map(Number) as [number, number];
    const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
    date_to = `${inputs.until}-${String(last).padStart(2, "0")}`;
  }
  return { date_from, date_to };
}
