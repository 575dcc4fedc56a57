/**
 * The escaped-token group's plumbing: the token written in the forms resmon or an export format may
 * give it (each character on its own: as itself, a JSON \u escape behind backslashes, percent-encoded
 * once or twice, an underscore as BibTeX and LaTeX write it, an HTML/XML character reference in
 * decimal, hex or by name, a character in BibTeX's protecting braces; issue 41 adds all but the first
 * four), split by whitespace or a line break, and a finder that decodes every such form and drops
 * every separator before it looks, so it judges the server's scrubber without sharing its pattern.
 */
import fc from "fast-check";

export type CharForm =
  | "plain"
  | "json_u"
  | "json_u_upper"
  | "json_u_nested"
  | "percent"
  | "percent_twice"
  | "bibtex"
  | "latex_braced"
  | "braced"
  | "html_dec"
  | "html_hex"
  | "html_named"
  | "html_amp";

const hex2 = (c: string) => c.charCodeAt(0).toString(16).padStart(2, "0");

function writeChar(c: string, form: CharForm): string {
  switch (form) {
    case "plain":
      return c;
    case "json_u":
      return `\\u00${hex2(c)}`;
    case "json_u_upper":
      return `\\u00${hex2(c).toUpperCase()}`;
    case "json_u_nested":
      return `\\\\u00${hex2(c)}`;
    case "percent":
      return `%${hex2(c).toUpperCase()}`;
    case "percent_twice":
      return `%25${hex2(c)}`;
    case "bibtex":
      return c === "_" ? "\\_" : c;
    case "latex_braced":
      return c === "_" ? "{\\textunderscore}" : c;
    case "braced":
      return `{${c}}`;
    case "html_dec":
      return `&#${c.charCodeAt(0)};`;
    case "html_hex":
      return `&#x${hex2(c)};`;
    case "html_named":
      return c === "_" ? "&lowbar;" : c;
    case "html_amp":
      return `&amp;#${c.charCodeAt(0)};`;
  }
}

/** What may split the token: a space, a line break as an exporter folds a line, CRLF and an indent. */
export const SPLITS = [" ", "\n", "\r\n  ", "\n\t"] as const;

/** The token with each character in its own form. */
export function writeToken(
  token: string,
  forms: readonly CharForm[],
  split?: { at: number; by: string },
): string {
  const chars = [...token].map((c, i) => writeChar(c, forms[i % forms.length] ?? "plain"));
  if (split) chars.splice(split.at, 0, split.by);
  return chars.join("");
}

const ALL_FORMS: CharForm[] = [
  "plain",
  "bibtex",
  "json_u",
  "percent",
  "percent_twice",
  "json_u_nested",
  "latex_braced",
  "braced",
  "html_dec",
  "html_hex",
  "html_named",
  "html_amp",
];

/** A split: where (between two characters) and by what; or none. */
export const tokenSplit: fc.Arbitrary<{ at: number; by: string } | undefined> = fc.option(
  fc.record({ at: fc.integer({ min: 1, max: 42 }), by: fc.constantFrom(...SPLITS) }),
  { nil: undefined },
);

/** A whole-token form (every underscore BibTeX's, and so on), or a mix character by character. */
export const tokenForms: fc.Arbitrary<CharForm[]> = fc.oneof(
  fc
    .constantFrom<CharForm>(
      "bibtex",
      "json_u",
      "json_u_upper",
      "json_u_nested",
      "percent",
      "percent_twice",
      "latex_braced",
      "braced",
      "html_dec",
      "html_hex",
      "html_named",
      "html_amp",
    )
    .map((f) => [f]),
  fc.array(fc.constantFrom<CharForm>(...ALL_FORMS), {
    minLength: 1,
    maxLength: 43,
  }),
);

/** Every form above decoded, repeatedly (a form inside a JSON string inside JSON included). */
function decodeAll(text: string): string {
  let out = text;
  for (let i = 0; i < 4; i++) {
    const next = out
      .replace(/%25/g, "%")
      .replace(/%([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)))
      .replace(/\\+u([0-9a-fA-F]{4})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)))
      .replace(/\{\\+_\}|\\+textunderscore(?:\{\})?|\\+_/g, "_")
      .replace(/&(?:amp;)*#[xX]([0-9a-fA-F]+);?/g, (_, h: string) =>
        String.fromCharCode(Number.parseInt(h, 16)),
      )
      .replace(/&(?:amp;)*#([0-9]+);?/g, (_, d: string) => String.fromCharCode(Number.parseInt(d, 10)))
      .replace(/&(?:amp;)*(?:lowbar|UnderBar);/g, "_");
    if (next === out) break;
    out = next;
  }
  return out;
}

/** Whether the text holds the token, in any of these forms, split by any separator or not. */
export function holdsToken(text: string, token: string): boolean {
  if (text.includes(token)) return true;
  const decoded = decodeAll(text);
  // Every separator and brace dropped: a token split anywhere is whole again for the finder.
  return decoded.includes(token) || decoded.replace(/\s+|\\+[nrt]|[{}]/g, "").includes(token);
}

/** The token as BibTeX, RIS, CSV and JSON exports would carry it in a title, written in `forms`. */
export function exportText(format: "bibtex" | "ris" | "csv" | "json", echoed: string): string {
  switch (format) {
    case "bibtex":
      return `@article{echo2026,\n  title = {Echoed ${echoed} title},\n  author = {Ada Lovelace},\n  year = {2026}\n}\n`;
    case "ris":
      return `TY  - JOUR\nTI  - Echoed ${echoed} title\nAU  - Ada Lovelace\nER  - \n`;
    case "csv":
      return `title,authors\r\n"Echoed ""${echoed}"" title","Ada Lovelace"\r\n`;
    case "json":
      return `[{"title": "Echoed ${echoed} title", "authors": "Ada Lovelace"}]`;
  }
}
