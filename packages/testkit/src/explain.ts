import type { Execution, Paper } from "./model.js";
import { catalogRows } from "./routes/catalog.js";

/** Match transparency: which recorded keywords appear where resmon can check, and what it cannot see. */
const LOCALLY_FILTERED = new Set(["biorxiv", "medrxiv"]);
export const FIELDS = ["title", "abstract", "categories", "authors"] as const;
const FIELD_LABELS: Record<string, string> = {
  title: "the title",
  abstract: "the abstract",
  categories: "the subject categories",
  authors: "the author list",
};
const OPERATORS = /(?:^|\s)(AND|OR|NOT)(?:\s|$)/;

export interface SourceInfo {
  slug: string;
  name: string;
  combination: string | null;
  notes: string | null;
}

let byslug: Map<string, Record<string, unknown>> | null = null;

export function sourceInfo(slug: string): SourceInfo {
  byslug ??= new Map(catalogRows().map((e) => [String(e.slug), e]));
  const e = byslug.get(slug);
  return {
    slug,
    name: typeof e?.name === "string" ? e.name : slug,
    combination: typeof e?.keyword_combination === "string" ? e.keyword_combination : null,
    notes: typeof e?.keyword_combination_notes === "string" ? e.keyword_combination_notes : null,
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Word-boundary, case-insensitive, phrase-aware; null when nothing in it can match. */
export function compileKeyword(keyword: string): RegExp | null {
  let text = keyword.trim();
  if (text.length >= 2 && text[0] === text[text.length - 1] && (text[0] === '"' || text[0] === "'"))
    text = text.slice(1, -1).trim();
  const parts = text.split(/\s+/).filter(Boolean).map(escapeRegExp);
  if (!parts.length) return null;
  const prefix = /^[\p{L}\p{N}_]/u.test(text) ? "(?<![\\p{L}\\p{N}_])" : "";
  const suffix = /[\p{L}\p{N}_]$/u.test(text) ? "(?![\\p{L}\\p{N}_])" : "";
  return new RegExp(`${prefix}${parts.join("\\s+")}${suffix}`, "iu");
}

export function fieldsMatched(p: Paper, pattern: RegExp): string[] {
  return FIELDS.filter((f) => pattern.test(String(p[f] ?? "")));
}

export function hasOperators(keyword: string): boolean {
  return OPERATORS.test(keyword);
}

function splitQuery(query: string): string[] {
  const out: string[] = [];
  for (const m of query.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) {
    const term = (m[1] ?? m[2] ?? m[3] ?? "").trim();
    if (term) out.push(term);
  }
  return out;
}

/** The keywords a run used: its explicit list, else its query split the way a person reads it. */
export function keywordsFor(e: Execution): string[] {
  const params = e.parameters;
  if (!params) return [];
  const list = params.keywords;
  if (Array.isArray(list)) {
    const cleaned = list.map((k) => String(k).trim()).filter(Boolean);
    if (cleaned.length) return cleaned;
  }
  return typeof params.query === "string" && params.query.trim() ? splitQuery(params.query) : [];
}

export function describeFields(fields: string[]): string {
  if (!fields.length) return "nowhere resmon can check";
  const labels = fields.map((f) => FIELD_LABELS[f] ?? f);
  return labels.length === 1
    ? (labels[0] ?? "")
    : `${labels.slice(0, -1).join(", ")} and ${labels[labels.length - 1]}`;
}

function joinKeywords(keywords: string[]): string {
  const q = keywords.map((k) => `“${k}”`);
  if (q.length <= 2) return q.join(" and ");
  return `${q.slice(0, -1).join(", ")} and ${q[q.length - 1]}`;
}

export function limits(source: SourceInfo): string[] {
  const out = [
    "resmon stores each paper's title, abstract, authors and categories — not its full text. A keyword could appear in the body of the paper, in publisher-supplied keywords, or in an indexing term such as MeSH, and resmon would have no way to see it.",
  ];
  const combination = source.combination ?? "";
  const notes = source.notes ? ` ${source.notes}` : "";
  if (LOCALLY_FILTERED.has(source.slug)) {
    out.push(
      `${source.name} is the exception: it has no upstream keyword search, so resmon did the filtering itself. For this source the explanation below is complete rather than partial.`,
    );
  } else if (combination.toLowerCase().includes("relevance")) {
    out.push(
      `${source.name} is relevance-ranked, not a strict keyword filter. It scores papers against the whole query and returns the best matches, so a paper can legitimately come back without containing any single term literally. resmon cannot see that score or the reasoning behind it.${notes}`,
    );
  } else if (combination) {
    out.push(`${source.name} combines terms as: ${combination}.${notes}`);
  }
  return out;
}

export function verdict(source: SourceInfo, total: number, matched: string[]): [string, string] {
  const many = matched.length > 1 ? "appear" : "appears";
  if (total === 0)
    return [
      "no_keywords_recorded",
      "This run did not record the keywords it used, so there is nothing to check the paper against.",
    ];
  if (LOCALLY_FILTERED.has(source.slug)) {
    return matched.length
      ? [
          "resmon_filtered",
          `${source.name} has no keyword search of its own, so resmon did the matching. This paper is here because ${joinKeywords(matched)} ${many} in it. That is the complete reason, not a partial one.`,
        ]
      : [
          "no_local_evidence",
          `${source.name} is filtered by resmon itself, so a paper with no matching term is unexpected here. It may predate a change to this routine's keywords.`,
        ];
  }
  if (matched.length) {
    return [
      "local_evidence",
      `${joinKeywords(matched)} ${many} in this paper. That makes it a plausible match — but ${source.name} chose to return it for its own reasons, which resmon cannot see.`,
    ];
  }
  return [
    "no_local_evidence",
    `None of your keywords appear anywhere resmon can check. That does not mean the paper is irrelevant: ${source.name} returned it, and the match may be in text resmon does not store.`,
  ];
}

export const LOCALLY = LOCALLY_FILTERED;
