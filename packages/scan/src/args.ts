import { isCanonicalUuid4 } from "@resmon/api-client";
import { canonicalJson, hashOf } from "./canonical.js";
import { invalidArgument } from "./errors.js";
import { PROFILES, type ProfileName } from "./profile.js";
import type { Criterion, PlannedQuery, QueryKind, ScanStartArgs } from "./types.js";

export const QUERY_KINDS: readonly QueryKind[] = [
  "direct",
  "terminology",
  "contradictory",
  "review",
  "mechanism",
  "adjacent",
  "method",
];
export const REQUIRED_QUERY_KINDS: readonly QueryKind[] = [
  "direct",
  "terminology",
  "contradictory",
  "review",
];
const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

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

export function checkScanId(scanId: unknown): string {
  if (typeof scanId !== "string" || !isCanonicalUuid4(scanId)) {
    // A UUID in capitals is the one mistake a caller can fix at once: say so in words.
    const capitals = typeof scanId === "string" && isCanonicalUuid4(scanId.toLowerCase());
    throw invalidArgument(
      "scan_id",
      capitals
        ? "scan_id has capital letters: use lowercase (the same UUID, lowercased)."
        : "scan_id must be a canonical lowercase UUIDv4 made by the caller.",
    );
  }
  return scanId;
}

function positiveInt(value: unknown, field: string, max = Number.MAX_SAFE_INTEGER, min = 1): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw invalidArgument(field, `${field} must be an integer from ${min} to ${max}.`);
  }
  return value;
}

function text(value: unknown, field: string): string {
  if (typeof value !== "string" || value.trim().length === 0) {
    throw invalidArgument(field, `${field} must be a non-empty string.`);
  }
  return value;
}

function month(value: unknown, field: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== "string" || !MONTH.test(value))
    throw invalidArgument(field, `${field} must be YYYY-MM.`);
  return value;
}

function checkPlan(plan: ScanStartArgs["queries"]): StartInputs["queries"] {
  if (plan === null || typeof plan !== "object")
    throw invalidArgument("queries", "queries must be the plan.");
  const { criteria, queries } = plan;
  if (!Array.isArray(criteria) || criteria.length < 3 || criteria.length > 6) {
    throw invalidArgument("queries.criteria", "The plan needs 3 to 6 criteria.");
  }
  const criterionIds = new Set<string>();
  for (const [i, c] of criteria.entries()) {
    if (typeof c?.id !== "string" || !/^C[1-6]$/.test(c.id) || criterionIds.has(c.id)) {
      throw invalidArgument(`queries.criteria[${i}].id`, "Criterion ids are distinct, C1 to C6.");
    }
    criterionIds.add(c.id);
    text(c.text, `queries.criteria[${i}].text`);
  }
  if (!Array.isArray(queries) || queries.length < 6 || queries.length > 8) {
    throw invalidArgument("queries.queries", "The plan needs 6 to 8 queries.");
  }
  const queryIds = new Set<string>();
  const out: Required<PlannedQuery>[] = [];
  for (const [i, q] of queries.entries()) {
    const id = text(q?.id, `queries.queries[${i}].id`);
    if (queryIds.has(id)) throw invalidArgument(`queries.queries[${i}].id`, `Query id ${id} is used twice.`);
    queryIds.add(id);
    if (!QUERY_KINDS.includes(q.kind)) {
      throw invalidArgument(`queries.queries[${i}].kind`, `kind is one of ${QUERY_KINDS.join(", ")}.`);
    }
    const mustNot = q.must_not ?? [];
    checkListLength(mustNot, `queries.queries[${i}].must_not`, "must_not");
    if (!Array.isArray(mustNot) || mustNot.some((t) => typeof t !== "string" || t.trim() === "")) {
      throw invalidArgument(`queries.queries[${i}].must_not`, "must_not is a list of non-empty strings.");
    }
    out.push({ id, kind: q.kind, text: text(q.text, `queries.queries[${i}].text`), must_not: [...mustNot] });
  }
  const missing = REQUIRED_QUERY_KINDS.filter((k) => !out.some((q) => q.kind === k));
  if (missing.length) {
    throw invalidArgument(
      "queries.queries",
      `The plan needs a query of each kind: ${missing.join(", ")} missing.`,
    );
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

/** Validate and default the start arguments (scan_id excluded). Throws invalid_argument naming the field. */
export function normalizeStart(args: ScanStartArgs): StartInputs {
  const brief = text(args.brief, "brief");
  const queries = checkPlan(args.queries);
  if (!Array.isArray(args.sources) || args.sources.length === 0) {
    throw invalidArgument("sources", "sources must name at least one source slug.");
  }
  checkListLength(args.sources, "sources", "sources");
  const sources = [...new Set(args.sources.map((s, i) => text(s, `sources[${i}]`).trim()))].sort();
  const retrieval = args.retrieval ?? "sweep";
  if (!["sweep", "corpus", "both"].includes(retrieval)) {
    throw invalidArgument("retrieval", "retrieval is sweep, corpus or both.");
  }
  const profileName = args.profile ?? "standard";
  const profile = PROFILES[profileName];
  if (!profile) throw invalidArgument("profile", "profile is quick, standard or deep.");
  const top = args.top === undefined ? 10 : positiveInt(args.top, "top", 25);
  const foundational =
    args.foundational === undefined
      ? Math.min(2, top)
      : positiveInt(args.foundational, "foundational", top, 0);
  const since = month(args.since, "since");
  const until = month(args.until, "until");
  if (since && until && since > until) throw invalidArgument("since", "since must not be after until.");
  const max_candidates =
    args.max_candidates === undefined
      ? profile.poolCap(queries.queries.length)
      : positiveInt(args.max_candidates, "max_candidates", 5000);
  const per_query =
    args.per_query === undefined ? profile.depth : positiveInt(args.per_query, "per_query", 500);
  const force = args.force_gap_round ?? false;
  if (typeof force !== "boolean") throw invalidArgument("force_gap_round", "force_gap_round is a boolean.");
  return {
    brief,
    queries,
    sources,
    retrieval,
    profile: profileName,
    top,
    foundational,
    since,
    until,
    max_candidates,
    per_query,
    force_gap_round: force,
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
