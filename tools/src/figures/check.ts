/** Compares the figures a doc quotes with the computed ones, and rewrites them (`--write`). */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { Figures } from "./compute.js";
import { PLACES, UNCHECKED_DOCS } from "./places.js";

export interface Quote {
  file: string;
  line: number;
  figure: string;
  found: string;
  start: number;
  end: number;
}

export interface Problem {
  file: string;
  line: number;
  message: string;
}

/** Every Markdown file a reader might take a figure from (not changelogs, changesets or run logs). */
export function docFiles(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if ([".git", "node_modules", "dist", ".changeset", ".turbo"].includes(entry.name)) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".md") && entry.name !== "CHANGELOG.md") found.push(relative(root, path));
    }
  };
  walk(root);
  return found.filter((f) => !UNCHECKED_DOCS.includes(f)).sort();
}

/** A quoted figure may be wrapped across lines (or a table re-aligned): whitespace runs compare equal. */
export const sameFigure = (quoted: string, value: string) =>
  quoted.replace(/\s+/g, " ") === value.replace(/\s+/g, " ");

const lineAt = (text: string, index: number) => text.slice(0, index).split("\n").length;

/** Every figure the text quotes, and places whose pattern no longer matches it. */
export function quotes(file: string, text: string): { quotes: Quote[]; missing: Problem[] } {
  const found: Quote[] = [];
  const missing: Problem[] = [];
  const add = (figure: string, span: [number, number] | undefined) => {
    if (!span) return;
    const [start, end] = span;
    found.push({ file, line: lineAt(text, start), figure, found: text.slice(start, end), start, end });
  };
  for (const place of PLACES.filter((p) => p.file === file)) {
    // A space in a place's pattern matches any run of whitespace, so a doc can be re-wrapped freely.
    const source = place.pattern.source.replaceAll(" ", "\\s+");
    const pattern = new RegExp(source, `${place.pattern.flags.replace("g", "")}dg`);
    const matches = [...text.matchAll(pattern)];
    if (matches.length === 0) {
      missing.push({
        file,
        line: 0,
        message: `no longer quotes ${place.figures.join(", ")} (${place.pattern})`,
      });
    }
    for (const m of matches) {
      for (const [i, figure] of place.figures.entries()) add(figure, m.indices?.[i + 1]);
    }
  }
  return { quotes: found, missing };
}

export function problems(root: string, figures: Figures): Problem[] {
  const list: Problem[] = [];
  for (const file of docFiles(root)) {
    const { quotes: found, missing } = quotes(file, readFileSync(join(root, file), "utf8"));
    list.push(...missing);
    for (const q of found) {
      const expected = figures[q.figure]?.value;
      if (expected === undefined) list.push({ file, line: q.line, message: `unknown figure ${q.figure}` });
      else if (!sameFigure(q.found, expected)) {
        list.push({ file, line: q.line, message: `${q.figure} is ${expected}; the doc says ${q.found}` });
      }
    }
  }
  for (const place of PLACES) {
    if (!existsSync(join(root, place.file)))
      list.push({ file: place.file, line: 0, message: "file is gone" });
  }
  return list;
}

/** The new value, broken across lines where the old one was, when both have as many words. */
export function keepWrapping(old: string, value: string): string {
  const gaps = old.match(/\s+/g) ?? [];
  const words = value.split(" ");
  if (words.length !== gaps.length + 1) return value;
  return words.map((w, i) => w + (gaps[i] ?? "")).join("");
}

/** The text with every quoted figure replaced by its computed value. */
export function rewrite(file: string, text: string, figures: Figures): string {
  const found = quotes(file, text).quotes.sort((a, b) => b.start - a.start);
  let out = text;
  for (const q of found) {
    const value = figures[q.figure]?.value;
    if (value !== undefined && !sameFigure(q.found, value)) {
      out = out.slice(0, q.start) + keepWrapping(q.found, value) + out.slice(q.end);
    }
  }
  return out;
}
