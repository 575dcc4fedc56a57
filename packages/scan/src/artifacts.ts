import type { NextAction, RankedEntry, ScreenScore } from "@resmon/mcp-contract";
import { ToolError } from "@resmon/mcp-contract";
import { hashOf } from "./canonical.js";

export interface FitProblems {
  missing_ids: number[];
  unknown_ids: number[];
  duplicate_ids: number[];
  bad_criteria: string[];
}

/** Which ids an artifact misses, repeats or invents against the expected ones. */
export function fitIds(
  expected: readonly number[],
  sent: readonly number[],
): Omit<FitProblems, "bad_criteria"> {
  const want = new Set(expected);
  const seen = new Set<number>();
  const duplicate = new Set<number>();
  const unknown = new Set<number>();
  for (const id of sent) {
    if (!want.has(id)) unknown.add(id);
    else if (seen.has(id)) duplicate.add(id);
    seen.add(id);
  }
  return {
    missing_ids: expected.filter((id) => !seen.has(id)),
    unknown_ids: [...unknown],
    duplicate_ids: [...duplicate],
  };
}

function hasProblems(p: FitProblems): boolean {
  return p.missing_ids.length + p.unknown_ids.length + p.duplicate_ids.length + p.bad_criteria.length > 0;
}

export function badArtifact(
  what: string,
  problems: FitProblems,
  extra: Record<string, unknown> = {},
): ToolError {
  const parts = [
    problems.missing_ids.length && `${problems.missing_ids.length} missing`,
    problems.unknown_ids.length && `${problems.unknown_ids.length} unknown`,
    problems.duplicate_ids.length && `${problems.duplicate_ids.length} repeated`,
    problems.bad_criteria.length && `unknown criteria ${problems.bad_criteria.join(", ")}`,
  ].filter(Boolean);
  return new ToolError(
    "invalid_argument",
    `The ${what} does not fit: ${parts.join(", ")}. Send it again with every id it asks for once, and no other (detail names them).`,
    { reason: "bad_artifact", ...problems, ...extra },
  );
}

/** Every item of the batch exactly once, no other ids, criteria from the plan only. */
export function checkScreenScores(
  batch: readonly number[],
  scores: readonly ScreenScore[],
  criteria: readonly string[],
): void {
  const ids = fitIds(
    batch,
    scores.map((s) => s.doc_id),
  );
  const known = new Set(criteria);
  const bad = new Set<string>();
  for (const s of scores) {
    if (!Number.isInteger(s.score) || s.score < 0 || s.score > 3) bad.add(`score:${s.doc_id}`);
    for (const c of s.criteria_hit ?? []) if (!known.has(c)) bad.add(c);
  }
  const problems = { ...ids, bad_criteria: [...bad] };
  if (hasProblems(problems))
    throw badArtifact("screening batch", problems, { next_action: "screen_candidates" });
}

/**
 * Every paper of the page exactly once, each with a positive integer rank. A rank orders the whole
 * shortlist (1 is the best paper of all pages), so a rank is given once: not twice on a page, and
 * not again for a rank an accepted page already holds (`taken`: rank → doc id).
 */
export function checkRankedPage(
  page: readonly number[],
  entries: readonly RankedEntry[],
  taken: ReadonlyMap<number, number> = new Map(),
  shortlisted = Number.MAX_SAFE_INTEGER,
): void {
  const problems: FitProblems = {
    ...fitIds(
      page,
      entries.map((e) => e.doc_id),
    ),
    bad_criteria: [],
  };
  // A rank orders the shortlist: 1 to its size, never beyond it.
  const badRanks = entries
    .filter((e) => !Number.isInteger(e.rank) || e.rank < 1 || e.rank > shortlisted)
    .map((e) => e.doc_id);
  if (hasProblems(problems)) throw badArtifact("shortlist page", problems, { next_action: "rank_shortlist" });
  if (badRanks.length) {
    throw new ToolError(
      "invalid_argument",
      `Each rank is a whole number from 1 to ${shortlisted} (the shortlist's size); send the page again with ranks in that range.`,
      {
        reason: "bad_artifact",
        field: "ranked_entries.rank",
        bad_rank_ids: badRanks,
        next_action: "rank_shortlist",
      },
    );
  }
  const holders = new Map<number, number[]>();
  for (const [rank, id] of taken) holders.set(rank, [id]);
  for (const e of entries) holders.set(e.rank, [...(holders.get(e.rank) ?? []), e.doc_id]);
  const twice = [...holders]
    .filter(([, ids]) => ids.length > 1)
    .map(([rank, doc_ids]) => ({ rank, doc_ids }))
    .sort((a, b) => a.rank - b.rank);
  if (twice.length) {
    const said = twice.map(
      (d) => `rank ${d.rank} is given to ${d.doc_ids.map((id) => `doc ${id}`).join(" and ")}`,
    );
    throw new ToolError(
      "invalid_argument",
      `The shortlist page does not fit: ${said.join("; ")}. A rank orders the whole shortlist (1 is best across every page), so each rank is used once.`,
      {
        reason: "bad_artifact",
        field: "ranked_entries.rank",
        missing_ids: [],
        unknown_ids: [],
        duplicate_ids: [],
        bad_criteria: [],
        duplicate_ranks: twice,
        next_action: "rank_shortlist",
      },
    );
  }
}

/** Order-free hash of an artifact: the same judgements in another order are the same artifact. */
export function artifactHash<T extends { doc_id: number }>(items: readonly T[]): string {
  return hashOf([...items].sort((a, b) => a.doc_id - b.doc_id));
}

export function wrongPhase(message: string, nextAction: NextAction): ToolError {
  return new ToolError("invalid_argument", message, { reason: "wrong_phase", next_action: nextAction });
}

/** An accepted batch or page sent again changed: refused, saying what the scan asks for now. */
export function alreadyAccepted(what: string, index: number | null, next: NextAction): ToolError {
  return new ToolError(
    "conflict",
    `That ${what} was already accepted with other judgements; an accepted ${what} is never changed. The scan now asks for ${next}: follow detail.next_action.`,
    {
      conflict: "already_accepted",
      ...(index === null ? {} : { [what === "screening batch" ? "batch" : "page"]: index }),
      next_action: next,
    },
  );
}
