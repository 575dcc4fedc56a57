/**
 * The escaped-token group's plumbing: the token written in the forms resmon or an export format may
 * give it (each character on its own: as itself, a JSON \u escape behind backslashes, percent-encoded
 * once or twice, an underscore as BibTeX writes it), and a finder that decodes every such form before
 * it looks, so it judges the server's scrubber without sharing its pattern.
 */
import fc from "fast-check";

export type CharForm =
  | "plain"
  | "json_u"
  | "json_u_upper"
  | "json_u_nested"
  | "percent"
  | "percent_twice"
  | "bibtex";

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
  }
}

/** The token with each character in its own form. */
export function writeToken(token: string, forms: readonly CharForm[]): string {
  return [...token].map((c, i) => writeChar(c, forms[i % forms.length] ?? "plain")).join("");
}

/** A whole-token form (every underscore BibTeX's, and so on), or a mix character by character. */
export const tokenForms: fc.Arbitrary<CharForm[]> = fc.oneof(
  fc
    .constantFrom<CharForm>("bibtex", "json_u", "json_u_upper", "json_u_nested", "percent", "percent_twice")
    .map((f) => [f]),
  fc.array(
    fc.constantFrom<CharForm>("plain", "bibtex", "json_u", "percent", "percent_twice", "json_u_nested"),
    {
      minLength: 1,
      maxLength: 43,
    },
  ),
);

/** Every form above decoded, repeatedly (a form inside a JSON string inside JSON included). */
function decodeAll(text: string): string {
  let out = text;
  for (let i = 0; i < 4; i++) {
    const next = out
      .replace(/%25/g, "%")
      .replace(/%([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)))
      .replace(/\\+u([0-9a-fA-F]{4})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)))
      .replace(/\{\\+_\}|\\+textunderscore(?:\{\})?|\\+_/g, "_");
    if (next === out) break;
    out = next;
  }
  return out;
}

/** Whether the text holds the token, in any of these forms. */
export function holdsToken(text: string, token: string): boolean {
  return text.includes(token) || decodeAll(text).includes(token);
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
