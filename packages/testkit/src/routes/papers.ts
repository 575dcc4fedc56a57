import type { Backend } from "../backend.js";
import type { Corpus } from "../corpus.js";
import {
  compileKeyword,
  describeFields,
  FIELDS,
  fieldsMatched,
  hasOperators,
  keywordsFor,
  LOCALLY,
  limits,
  sourceInfo,
  verdict,
} from "../explain.js";
import type { JsonObject, Paper } from "../model.js";
import { type Ctx, detail, intParam, isReply, ok, queryValue, type Reply, type Routes } from "../reply.js";
import { distance, EMBEDDING_MODEL, embed } from "../vectors.js";
import { byNewest, paperRow } from "../views.js";

const COUNT_CAP = 10000;
/** What a records file's rankings are named as (corpus.ts). */
const CORPUS_SEARCH_MODEL = "testkit-bm25";
const CORPUS_SIMILAR_MODEL = "testkit-tfidf-cosine";
const MAX_PAGE = 200;

export const NO_MODEL_RANKING =
  "No embedding model is configured, so resmon cannot rank by meaning. Set one up in Settings → AI → Embeddings.";
const NO_EXTENSION_RANKING =
  "The vector index cannot be loaded in this build, so resmon cannot rank by meaning.";

interface SearchBody {
  query?: unknown;
  limit?: unknown;
  sort?: unknown;
  cursor?: unknown;
  sources?: unknown;
  authors?: unknown;
  categories?: unknown;
  date_from?: unknown;
  date_to?: unknown;
}

function strings(x: unknown): string[] | null {
  return Array.isArray(x) && x.length > 0 ? x.map(String) : null;
}

/** The structured filters (sources, authors, categories, dates); the phrase is applied separately. */
function structuredFilter(body: SearchBody): (p: Paper) => boolean {
  const sources = strings(body.sources);
  const authors = strings(body.authors);
  const categories = strings(body.categories);
  const from = typeof body.date_from === "string" && body.date_from ? body.date_from : null;
  const to = typeof body.date_to === "string" && body.date_to ? body.date_to : null;
  return (p) =>
    (!sources || sources.includes(p.source_repository)) &&
    (!authors || p.authors.split(", ").some((a) => authors.includes(a))) &&
    (!categories || p.categories.split(", ").some((c) => categories.includes(c))) &&
    (!from || (p.publication_date !== null && p.publication_date >= from)) &&
    (!to || (p.publication_date !== null && p.publication_date <= to));
}

/** An AND over every word, the last one as a prefix, across title and abstract (resmon's FTS query). */
function textFilter(query: string): (p: Paper) => boolean {
  const tokens = query.toLowerCase().split(/\s+/).filter(Boolean);
  return (p) => {
    const text = `${p.title} ${p.abstract ?? ""}`.toLowerCase();
    const hay = text.split(/[^\p{L}\p{N}]+/u);
    return tokens.every((t, i) => {
      const clean = t.replace(/[^\p{L}\p{N}]+/gu, "");
      if (!clean) return true;
      return i === tokens.length - 1 ? hay.some((w) => w.startsWith(clean)) : hay.includes(clean);
    });
  };
}

function pageSize(raw: unknown): number {
  const n = typeof raw === "number" ? Math.trunc(raw) : 50;
  return Math.max(1, Math.min(n, MAX_PAGE));
}

function newestPage(backend: Backend, body: SearchBody, limit: number): Reply | JsonObject {
  const query = typeof body.query === "string" ? body.query.trim() : "";
  const structured = structuredFilter(body);
  const text = query ? textFilter(query) : () => true;
  const matching = backend.store.papers.filter((p) => structured(p) && text(p)).sort(byNewest);
  let start = 0;
  if (typeof body.cursor === "string" && body.cursor) {
    const cut = body.cursor.lastIndexOf("|");
    const idText = cut < 0 ? "" : body.cursor.slice(cut + 1);
    if (cut < 0 || !/^-?\d+$/.test(idText)) return detail(400, `Malformed cursor: '${body.cursor}'`);
    const date = body.cursor.slice(0, cut);
    const id = Number(idText);
    // Seek: the first row strictly after (date, id) in (pub_sort DESC, id DESC).
    start = matching.findIndex((p) => {
      const d = p.publication_date ?? "";
      return d < date || (d === date && p.id < id);
    });
    if (start < 0) start = matching.length;
  }
  const page = matching.slice(start, start + limit);
  const hasMore = start + limit < matching.length;
  const last = page[page.length - 1];
  return {
    results: page.map(paperRow),
    next_cursor: hasMore && last ? `${last.publication_date ?? ""}|${last.id}` : null,
    has_more: hasMore,
    total: Math.min(matching.length, COUNT_CAP),
    total_is_capped: matching.length > COUNT_CAP,
    count_cap: COUNT_CAP,
    used_full_text_index: query.length > 0,
    page_size: limit,
    sort: "newest",
  };
}

type Ranking = (papers: Paper[]) => { p: Paper; d: number }[];

/** The seed's ranking by meaning: cosine distance of hashed bag-of-words vectors. */
function vectorRanking(backend: Backend, query: string): Ranking {
  const target = embed(query);
  return (papers) =>
    papers
      .map((p) => ({ p, d: distance(target, backend.vectorOf(p)) }))
      .sort((a, b) => a.d - b.d || b.p.id - a.p.id);
}

/**
 * A records file's ranking (corpus.ts): BM25 over title and abstract, best first, ties by lower id;
 * `distance` is 1 − score / the best score (0 for the best, 1 for a paper that shares no word).
 */
function corpusRanking(corpus: Corpus, query: string): Ranking {
  const scores = corpus.bm25(query);
  return (papers) => {
    const scored = papers.map((p) => ({ p, s: scores.get(corpus.workOf.get(p.id) ?? -1) ?? 0 }));
    const best = Math.max(0, ...scored.map((x) => x.s));
    return scored
      .sort((a, b) => b.s - a.s || a.p.id - b.p.id)
      .map(({ p, s }) => ({ p, d: best > 0 ? Math.round((1 - s / best) * 10000) / 10000 : 1 }));
  };
}

function similarityPage(backend: Backend, body: SearchBody, limit: number): JsonObject {
  const query = typeof body.query === "string" ? body.query.trim() : "";
  const candidates = backend.store.papers.filter(structuredFilter(body)).sort(byNewest).slice(0, COUNT_CAP);
  const ranked = (backend.corpus ? corpusRanking(backend.corpus, query) : vectorRanking(backend, query))(
    candidates.filter((p) => backend.isEmbedded(p.id)),
  );
  const unranked = candidates.filter((p) => !backend.isEmbedded(p.id));
  const ordered = [
    ...ranked.map((r) => ({ p: r.p, d: r.d as number | null })),
    ...unranked.map((p) => ({ p, d: null })),
  ];
  const raw = typeof body.cursor === "string" ? Number.parseInt(body.cursor, 10) : 0;
  const offset = Number.isFinite(raw) && raw > 0 ? raw : 0;
  const window = ordered.slice(offset, offset + limit);
  const hasMore = offset + limit < ordered.length;
  return {
    results: window.map(({ p, d }) => ({ ...paperRow(p), distance: d })),
    next_cursor: hasMore ? String(offset + window.length) : null,
    has_more: hasMore,
    total: Math.min(ordered.length, COUNT_CAP),
    total_is_capped: candidates.length >= COUNT_CAP,
    count_cap: COUNT_CAP,
    used_full_text_index: false,
    page_size: limit,
    sort: "similarity",
    ranked_count: ranked.length,
    unranked_count: unranked.length,
    model: backend.corpus ? CORPUS_SEARCH_MODEL : EMBEDDING_MODEL,
  };
}

export function explorerSearch(ctx: Ctx): Reply {
  const body = (ctx.body ?? {}) as SearchBody;
  const limit = pageSize(body.limit);
  const query = typeof body.query === "string" ? body.query.trim() : "";
  if (body.sort === "similarity") {
    const declined =
      ctx.backend.embeddingState === "no_model"
        ? NO_MODEL_RANKING
        : ctx.backend.embeddingState === "extension_unavailable"
          ? NO_EXTENSION_RANKING
          : !query
            ? "Ranking by meaning needs a search phrase and an embedding model. Showing the newest first."
            : null;
    if (!declined) return ok(similarityPage(ctx.backend, body, limit));
    const page = newestPage(ctx.backend, body, limit);
    if ("status" in page && "body" in page) return page as Reply;
    return ok({ ...page, similarity_unavailable: declined });
  }
  const page = newestPage(ctx.backend, body, limit);
  if ("status" in page && "body" in page) return page as Reply;
  return ok(page);
}

const NOTHING_EMBEDDED =
  "Nothing is embedded yet, so resmon has nothing to compare this paper against. Set up an embedding model in Settings → AI.";

export function similar(ctx: Ctx): Reply {
  const id = intParam(ctx.params.document_id, "document_id", "path");
  if (isReply(id)) return id;
  const k = intParam(queryValue(ctx.query, "k"), "k", "query");
  if (isReply(k)) return k;
  const b = ctx.backend;
  const docId = id ?? 0;
  if (b.embeddingState === "no_model")
    return ok({ document_id: docId, model: null, neighbours: [], reason: NOTHING_EMBEDDED });
  const base = { document_id: docId, model: b.corpus ? CORPUS_SIMILAR_MODEL : EMBEDDING_MODEL };
  if (b.embeddingState === "extension_unavailable") {
    return ok({
      ...base,
      neighbours: [],
      reason: "The sqlite-vec extension could not be loaded in this backend.",
    });
  }
  const self = b.store.paperById.get(docId);
  const target = () => b.vectorOf(self as Paper);
  if (!self || !b.isEmbedded(docId)) {
    return ok({
      ...base,
      neighbours: [],
      reason:
        "This paper has no vector for the current model, so resmon cannot say what it is like. Run the backfill in Settings to include it.",
    });
  }
  const count = Math.max(1, k ?? 10);
  // A records file: the cosine of TF-IDF vectors over title and abstract (corpus.ts).
  const neighbours = b.corpus
    ? b.corpus
        .similarTo(docId, count)
        .map(({ paper, cosine }) => ({ p: paper, d: Math.round((1 - cosine) * 10000) / 10000 }))
    : b.store.papers
        .filter((p) => p.id !== docId && b.isEmbedded(p.id))
        .map((p) => ({ p, d: distance(target(), b.vectorOf(p)) }))
        .sort((x, y) => x.d - y.d || y.p.id - x.p.id)
        .slice(0, count);
  if (neighbours.length === 0) {
    return ok({
      ...base,
      neighbours: [],
      reason: "Nothing else in the corpus is embedded with this model yet.",
    });
  }
  return ok({
    ...base,
    neighbours: neighbours.map(({ p, d }) => ({
      ...paperRow(p),
      distance: d,
      source_repository: p.source_repository,
    })),
    reason: null,
  });
}

export function why(ctx: Ctx): Reply {
  const id = intParam(ctx.params.doc_id, "doc_id", "path");
  if (isReply(id)) return id;
  const execFilter = intParam(queryValue(ctx.query, "execution_id"), "execution_id", "query");
  if (isReply(execFilter)) return execFilter;
  const store = ctx.backend.store;
  const p = id === undefined ? undefined : store.paperById.get(id);
  if (!p) return detail(404, `No document with id ${ctx.params.doc_id}`);
  const executions =
    execFilter !== undefined
      ? [store.executions.get(execFilter)].filter((e) => e !== undefined)
      : [...store.executions.values()]
          .filter((e) => e.document_ids.includes(p.id))
          .sort((a, b) => (a.start_time < b.start_time ? 1 : a.start_time > b.start_time ? -1 : 0));
  const seen: string[] = [];
  const runs = executions.map((e) => {
    const keywords = keywordsFor(e);
    for (const k of keywords) if (!seen.includes(k)) seen.push(k);
    return {
      execution_id: e.id,
      execution_type: e.execution_type,
      start_time: e.start_time,
      routine_name: e.routine_id === null ? null : (store.routines.get(e.routine_id)?.name ?? null),
      keywords,
    };
  });
  const matches = seen.map((keyword) => {
    const pattern = compileKeyword(keyword);
    const fields = pattern ? fieldsMatched(p, pattern) : [];
    return {
      keyword,
      matched: fields.length > 0,
      fields,
      where: describeFields(fields),
      contains_operators: hasOperators(keyword),
    };
  });
  matches.sort(
    (a, b) =>
      Number(!a.matched) - Number(!b.matched) ||
      Number(!a.fields.includes("title")) - Number(!b.fields.includes("title")) ||
      Number(!a.fields.includes("abstract")) - Number(!b.fields.includes("abstract")) ||
      a.keyword.toLowerCase().localeCompare(b.keyword.toLowerCase()),
  );
  const matched = matches.filter((m) => m.matched).map((m) => m.keyword);
  const source = sourceInfo(p.source_repository);
  const [grade, headline] = verdict(source, matches.length, matched);
  return ok({
    document: {
      id: p.id,
      title: p.title,
      source_repository: p.source_repository,
      doi: p.doi,
      publication_date: p.publication_date,
      first_seen_at: p.first_seen_at,
    },
    source: {
      slug: source.slug,
      name: source.name,
      keyword_combination: source.combination,
      keyword_combination_notes: source.notes,
      resmon_filtered_locally: LOCALLY.has(source.slug),
    },
    runs,
    keywords: matches,
    matched_count: matched.length,
    keyword_count: matches.length,
    verdict: grade,
    headline,
    what_resmon_cannot_see: limits(source),
    fields_checked: [...FIELDS],
  });
}

export function lifecycle(ctx: Ctx): Reply {
  const id = intParam(ctx.params.doc_id, "doc_id", "path");
  if (isReply(id)) return id;
  if (id === undefined || !ctx.backend.store.paperById.has(id))
    return detail(404, `No document with id ${ctx.params.doc_id}`);
  const l = ctx.backend.store.lifecycle.get(id);
  return ok({
    document_id: id,
    events: l?.events ?? [],
    checked_at: l?.checked_at ?? null,
    check_status: l?.check_status ?? null,
  });
}

/** The corpus: search, similar papers, why a paper matched, its lifecycle. */
export const papers: Routes = {
  "POST /api/explorer/search": explorerSearch,
  "GET /api/documents/{document_id}/similar": similar,
  "GET /api/documents/{doc_id}/why": why,
  "GET /api/documents/{doc_id}/lifecycle": lifecycle,
};
