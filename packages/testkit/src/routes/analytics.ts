import type { Backend } from "../backend.js";
import { compileKeyword, FIELDS, fieldsMatched, hasOperators, keywordsFor } from "../explain.js";
import type { JsonObject, Paper } from "../model.js";
import { type Ctx, detail, intParam, isReply, ok, queryValue, type Reply, type Routes } from "../reply.js";

function sourceContribution(b: Backend): JsonObject {
  const byDoi = new Map<string, Set<string>>();
  for (const p of b.store.papers)
    if (p.doi) byDoi.set(p.doi, (byDoi.get(p.doi) ?? new Set()).add(p.source_repository));
  const totals = new Map<string, { total: number; dup: number }>();
  for (const p of b.store.papers) {
    const t = totals.get(p.source_repository) ?? { total: 0, dup: 0 };
    t.total++;
    if (p.doi && (byDoi.get(p.doi)?.size ?? 0) > 1) t.dup++;
    totals.set(p.source_repository, t);
  }
  const sources = [...totals.entries()]
    .map(([source, t]) => ({
      source,
      total: t.total,
      unique_papers: t.total - t.dup,
      duplicated: t.dup,
      unique_share: Math.round(((t.total - t.dup) / t.total) * 10000) / 10000,
    }))
    .sort((a, b) => b.unique_share - a.unique_share || a.source.localeCompare(b.source));
  return {
    sources,
    sample_size: b.store.papers.length,
    sufficient: b.store.papers.length >= 10,
    insufficient_reason: b.store.papers.length >= 10 ? null : "Needs at least 10 papers.",
  };
}

function discoveryLag(b: Backend): JsonObject {
  const bySource = new Map<string, number[]>();
  for (const p of b.store.papers) {
    if (!p.publication_date) continue;
    const lag =
      (Date.parse(`${p.first_seen_at.slice(0, 10)}T00:00:00Z`) -
        Date.parse(`${p.publication_date}T00:00:00Z`)) /
      86400000;
    if (lag < 0) continue;
    bySource.set(p.source_repository, [...(bySource.get(p.source_repository) ?? []), lag]);
  }
  let sample = 0;
  const sources = [...bySource.entries()]
    .sort(([a], [b2]) => a.localeCompare(b2))
    .map(([source, lags]) => {
      sample += lags.length;
      const sorted = [...lags].sort((x, y) => x - y);
      const enough = sorted.length >= 5;
      return {
        source,
        sample_size: sorted.length,
        sufficient: enough,
        median_days: enough ? (sorted[Math.floor(sorted.length / 2)] ?? null) : null,
        fastest_days: enough ? (sorted[0] ?? null) : null,
        slowest_days: enough ? (sorted[sorted.length - 1] ?? null) : null,
      };
    });
  const sufficient = sources.some((s) => s.sufficient);
  return {
    sources,
    sample_size: sample,
    sufficient,
    minimum_sample: 5,
    insufficient_reason: sufficient ? null : "Needs at least 5 dated papers from a source.",
  };
}

function routineHealth(b: Backend): JsonObject {
  const routines = [...b.store.routines.values()].map((r) => {
    const runs = [...b.store.executions.values()]
      .filter((e) => e.routine_id === r.id && e.status === "completed")
      .sort((x, y) => (x.start_time < y.start_time ? -1 : 1));
    const series = runs.map((e) => ({
      start_time: e.start_time,
      new_results: e.new_result_count,
      total_results: e.result_count,
    }));
    let sinceNew = 0;
    for (let i = runs.length - 1; i >= 0 && (runs[i]?.new_result_count ?? 0) === 0; i--) sinceNew++;
    const lastNew = [...runs].reverse().find((e) => e.new_result_count > 0);
    const enough = runs.length >= 3;
    return {
      routine_id: r.id,
      name: r.name,
      schedule_cron: r.schedule_cron,
      is_active: r.is_active,
      runs: runs.length,
      series,
      runs_since_new: sinceNew,
      last_new_result_at: lastNew?.start_time ?? null,
      total_new: runs.reduce((n, e) => n + e.new_result_count, 0),
      status: !enough ? "insufficient_data" : sinceNew >= 3 ? "stale" : "healthy",
      sample_size: runs.length,
      sufficient: enough,
    };
  });
  return {
    routines,
    minimum_runs: 3,
    stale_after: 3,
    sample_size: routines.length,
    sufficient: true,
    insufficient_reason: null,
  };
}

function publicationVolume(b: Backend, groupBy: string, months: number | undefined): JsonObject {
  const series = new Map<string, Map<string, number>>();
  const groups = new Map<string, number>();
  for (const p of b.store.papers) {
    if (!p.publication_date) continue;
    const month = p.publication_date.slice(0, 7);
    const keys = groupBy === "source" ? [p.source_repository] : p.categories.split(", ");
    const m = series.get(month) ?? new Map<string, number>();
    for (const k of keys) {
      m.set(k, (m.get(k) ?? 0) + 1);
      groups.set(k, (groups.get(k) ?? 0) + 1);
    }
    series.set(month, m);
  }
  let monthsSorted = [...series.keys()].sort();
  if (months !== undefined && months > 0) monthsSorted = monthsSorted.slice(-months);
  const dated = b.store.papers.filter((p) => p.publication_date).length;
  return {
    group_by: groupBy,
    groups: [...groups.entries()].sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0])).map(([g]) => g),
    series: monthsSorted.map((month) => {
      const m = series.get(month) ?? new Map();
      return { month, total: [...m.values()].reduce((a, c) => a + c, 0), groups: Object.fromEntries(m) };
    }),
    sample_size: dated,
    sufficient: dated >= 5,
    insufficient_reason: dated >= 5 ? null : "Needs at least 5 dated papers.",
  };
}

function summary(b: Backend): JsonObject {
  const papers = b.store.papers;
  const dois = new Set(papers.map((p) => p.doi).filter(Boolean));
  const undup = papers.filter((p) => !p.doi).length + dois.size;
  const authors = new Set(papers.flatMap((p) => p.authors.split(", ")));
  const seen = papers.map((p) => p.first_seen_at).sort();
  return {
    documents: papers.length,
    unique_papers: undup,
    distinct_authors: authors.size,
    sources: new Set(papers.map((p) => p.source_repository)).size,
    completed_executions: [...b.store.executions.values()].filter((e) => e.status === "completed").length,
    first_seen: seen[0] ?? null,
    last_seen: seen[seen.length - 1] ?? null,
    doi_coverage:
      Math.round((papers.filter((p) => p.doi).length / Math.max(1, papers.length)) * 10000) / 10000,
    sample_size: papers.length,
    sufficient: papers.length >= 10,
  };
}

export function overview(ctx: Ctx): Reply {
  const b = ctx.backend;
  return ok({
    summary: summary(b),
    source_contribution: sourceContribution(b),
    discovery_lag: discoveryLag(b),
    routine_health: routineHealth(b),
    publication_volume: publicationVolume(b, "source", undefined),
  });
}

export function volume(ctx: Ctx): Reply {
  const groupBy = queryValue(ctx.query, "group_by") ?? "source";
  if (groupBy !== "source" && groupBy !== "category")
    return detail(400, "group_by must be 'source' or 'category'");
  const months = intParam(queryValue(ctx.query, "months"), "months", "query");
  if (isReply(months)) return months;
  return ok(publicationVolume(ctx.backend, groupBy, months ?? 12));
}

export const sources = (ctx: Ctx): Reply => ok(sourceContribution(ctx.backend));
export const lag = (ctx: Ctx): Reply => ok(discoveryLag(ctx.backend));
export const health = (ctx: Ctx): Reply => ok(routineHealth(ctx.backend));

function emptyContribution(scope: JsonObject, reason: string): JsonObject {
  return {
    scope,
    keywords: [],
    documents_considered: 0,
    documents_matched: 0,
    documents_unexplained: 0,
    sample_size: 0,
    minimum_sample_for_share: 10,
    sufficient: false,
    insufficient_reason: reason,
    fields_checked: [...FIELDS],
  };
}

/** Per keyword: the papers it matches, and how many no other keyword matches. */
export function keywords(ctx: Ctx): Reply {
  const execId = intParam(queryValue(ctx.query, "execution_id"), "execution_id", "query");
  if (isReply(execId)) return execId;
  const store = ctx.backend.store;
  let words: string[];
  let papers: Paper[];
  let scope: JsonObject;
  if (execId !== undefined) {
    const e = store.executions.get(execId);
    if (!e) return detail(404, `No execution with id ${execId}`);
    words = keywordsFor(e);
    papers = e.document_ids.map((d) => store.paperById.get(d)).filter((p): p is Paper => p !== undefined);
    scope = { type: "execution", execution_id: execId };
  } else {
    const seen: string[] = [];
    const runs = [...store.executions.values()].sort((a, b) =>
      a.start_time < b.start_time ? -1 : a.start_time > b.start_time ? 1 : a.id - b.id,
    );
    for (const e of runs) for (const k of keywordsFor(e)) if (!seen.includes(k)) seen.push(k);
    words = seen;
    papers = store.papers;
    scope = { type: "corpus" };
  }
  if (!words.length) return ok(emptyContribution(scope, "No keywords have been recorded on any run yet."));
  if (!papers.length) return ok(emptyContribution(scope, "No papers to measure against yet."));
  const patterns = words
    .map((k) => [k, compileKeyword(k)] as const)
    .filter((x): x is readonly [string, RegExp] => x[1] !== null);
  const hits = new Map<string, Set<number>>();
  const matchedAny = new Set<number>();
  for (const p of papers) {
    for (const [k, re] of patterns) {
      if (fieldsMatched(p, re).length) {
        hits.set(k, (hits.get(k) ?? new Set()).add(p.id));
        matchedAny.add(p.id);
      }
    }
  }
  const rows = patterns.map(([k]) => {
    const mine = hits.get(k) ?? new Set<number>();
    let unique = 0;
    for (const id of mine)
      if (![...hits.entries()].some(([other, ids]) => other !== k && ids.has(id))) unique++;
    return {
      keyword: k,
      matched: mine.size,
      unique,
      shared: mine.size - unique,
      contains_operators: hasOperators(k),
      unique_share: mine.size >= 10 ? Math.round((unique / mine.size) * 1000) / 1000 : null,
    };
  });
  rows.sort(
    (a, b) =>
      b.unique - a.unique ||
      b.matched - a.matched ||
      a.keyword.toLowerCase().localeCompare(b.keyword.toLowerCase()),
  );
  return ok({
    scope,
    keywords: rows,
    documents_considered: papers.length,
    documents_matched: matchedAny.size,
    documents_unexplained: papers.length - matchedAny.size,
    sample_size: papers.length,
    minimum_sample_for_share: 10,
    sufficient: true,
    insufficient_reason: null,
    fields_checked: [...FIELDS],
  });
}

/** The analytics routes. */
export const analytics: Routes = {
  "GET /api/analytics/overview": overview,
  "GET /api/analytics/publication-volume": volume,
  "GET /api/analytics/source-contribution": sources,
  "GET /api/analytics/keyword-contribution": keywords,
  "GET /api/analytics/routine-health": health,
  "GET /api/analytics/discovery-lag": lag,
};
