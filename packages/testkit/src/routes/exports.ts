import type { Paper } from "../model.js";
import {
  boolParam,
  type Ctx,
  detail,
  intParam,
  isReply,
  queryValue,
  type Reply,
  type Routes,
} from "../reply.js";
import { byNewest } from "../views.js";

const FORMATS = ["bibtex", "csv", "json", "ris"] as const;
type Format = (typeof FORMATS)[number];
const COLUMNS = [
  "title",
  "authors",
  "publication_date",
  "doi",
  "url",
  "source_repository",
  "external_id",
  "categories",
  "abstract",
] as const;

function badFormat(format: string): Reply {
  return detail(400, `Unknown export format '${format}'. Expected one of: bibtex, csv, json, ris.`);
}

function ascii(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[^A-Za-z0-9]/g, "")
    .toLowerCase();
}

function bibtex(papers: Paper[]): string {
  const used = new Map<string, number>();
  return papers
    .map((p) => {
      const firstAuthor = p.authors.split(", ")[0] ?? "";
      const last = ascii(firstAuthor.split(" ").slice(-1)[0] ?? "") || "anon";
      const year = p.publication_date?.slice(0, 4) ?? "";
      const word = ascii(p.title.split(/\s+/).find((w) => w.length > 3) ?? "");
      let key = `${last}${year}${word}`;
      const seen = used.get(key) ?? 0;
      used.set(key, seen + 1);
      if (seen > 0) key += String.fromCharCode(97 + seen);
      const fields = [
        `  title = {${p.title}}`,
        `  author = {${p.authors.split(", ").join(" and ")}}`,
        ...(year ? [`  year = {${year}}`] : []),
        ...(p.doi ? [`  doi = {${p.doi}}`] : []),
        `  url = {${p.url}}`,
        `  note = {Retrieved via resmon from ${p.source_repository}}`,
        ...(p.categories ? [`  keywords = {${p.categories}}`] : []),
        ...(p.abstract ? [`  abstract = {${p.abstract}}`] : []),
      ];
      return `@article{${key},\n${fields.join(",\n")}\n}\n`;
    })
    .join("\n");
}

function ris(papers: Paper[]): string {
  return papers
    .map((p) => {
      const lines = ["TY  - JOUR", `TI  - ${p.title}`, ...p.authors.split(", ").map((a) => `AU  - ${a}`)];
      if (p.publication_date)
        lines.push(
          `PY  - ${p.publication_date.slice(0, 4)}`,
          `DA  - ${p.publication_date.replaceAll("-", "/")}`,
        );
      if (p.abstract) lines.push(`AB  - ${p.abstract}`);
      if (p.doi) lines.push(`DO  - ${p.doi}`);
      lines.push(`UR  - ${p.url}`);
      for (const c of p.categories.split(", ").filter(Boolean)) lines.push(`KW  - ${c}`);
      lines.push(`DP  - ${p.source_repository}`, "ER  - ");
      return `${lines.join("\n")}\n`;
    })
    .join("\n");
}

/**
 * resmon's to_csv writes every value as `" ".join(str(value).split())` and None as "" (reference_export.py,
 * read at v1.6.0 f26f4dd, unchanged at b91975a): Python's str.split() splits on these (str.isspace()).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: Python counts \x1c-\x1f (the separators) as whitespace too.
const PY_WHITESPACE = /[\t\n\v\f\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/g;

function csvCell(value: string | null): string {
  const text = value === null ? "" : value.replace(PY_WHITESPACE, " ").replace(/^ | $/g, "");
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function csv(papers: Paper[]): string {
  const lines = [COLUMNS.join(",")];
  for (const p of papers) lines.push(COLUMNS.map((c) => csvCell(p[c])).join(","));
  return `${lines.join("\r\n")}\r\n`;
}

function render(papers: Paper[], format: Format, includeIds: boolean): Reply {
  const sorted = [...papers].sort(byNewest);
  switch (format) {
    case "json":
      return {
        status: 200,
        body: sorted.map((p) => {
          const row: Record<string, unknown> = {};
          for (const c of COLUMNS) row[c] = p[c];
          if (includeIds) row.id = p.id;
          return row;
        }),
      };
    case "bibtex":
      return { status: 200, body: bibtex(sorted), contentType: "application/x-bibtex" };
    case "ris":
      return { status: 200, body: ris(sorted), contentType: "application/x-research-info-systems" };
    case "csv":
      return { status: 200, body: csv(sorted), contentType: "text/csv; charset=utf-8" };
  }
}

function isFormat(x: string): x is Format {
  return (FORMATS as readonly string[]).includes(x);
}

export function executionReferences(ctx: Ctx): Reply {
  const id = intParam(ctx.params.exec_id, "exec_id", "path");
  if (isReply(id)) return id;
  const e = id === undefined ? undefined : ctx.backend.store.executions.get(id);
  if (!e) return detail(404, "Execution not found");
  const format = queryValue(ctx.query, "format") ?? "bibtex";
  if (!isFormat(format)) return badFormat(format);
  const includeIds = boolParam(queryValue(ctx.query, "include_ids")) ?? false;
  if (includeIds && format !== "json") return detail(400, "include_ids requires the json format");
  const ids = boolParam(queryValue(ctx.query, "only_new")) ? e.new_document_ids : e.document_ids;
  const papers = ids
    .map((i) => ctx.backend.store.paperById.get(i))
    .filter((p): p is Paper => p !== undefined);
  return render(papers, format, includeIds);
}

export function exportReferences(ctx: Ctx): Reply {
  const body = (ctx.body ?? {}) as { document_ids?: unknown; execution_ids?: unknown; format?: unknown };
  const format = typeof body.format === "string" ? body.format : "bibtex";
  if (!isFormat(format)) return badFormat(format);
  const ids = new Set<number>();
  if (Array.isArray(body.document_ids))
    for (const i of body.document_ids) if (typeof i === "number") ids.add(i);
  if (Array.isArray(body.execution_ids)) {
    for (const ei of body.execution_ids) {
      const e = typeof ei === "number" ? ctx.backend.store.executions.get(ei) : undefined;
      for (const d of e?.document_ids ?? []) ids.add(d);
    }
  }
  // Unknown ids are dropped silently, as resmon does.
  const papers = [...ids]
    .map((i) => ctx.backend.store.paperById.get(i))
    .filter((p): p is Paper => p !== undefined);
  return render(papers, format, false);
}

/** A run's references and the reference export. */
export const exports: Routes = {
  "GET /api/executions/{exec_id}/references": executionReferences,
  "POST /api/export/references": exportReferences,
};
