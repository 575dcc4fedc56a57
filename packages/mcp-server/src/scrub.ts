/**
 * The second layer of token hygiene. The first is that no code path puts the token into an
 * answer or a log; this one replaces any token this process has read with a placeholder in
 * everything written to stdout and stderr, in case the first ever fails.
 */
/** Every secret this process read: each frame and log line it writes is scrubbed of them. */
const secrets = new Set<string>();
const PLACEHOLDER = "<redacted>";
// An Authorization header value, whatever the token, is never something to print.
const BEARER = /Bearer\s+[A-Za-z0-9._~+/=-]{20,}/g;

/** Remember a secret this process has read (only values long enough to be a token). */
export function registerSecret(value: string): void {
  const trimmed = value.trim();
  if (trimmed.length >= 16) secrets.add(trimmed);
}

/**
 * A secret in any escaping resmon or an export format may give its characters, each character on
 * its own (issues 34 and 41): as itself; as a JSON `\uXXXX` escape behind any run of backslashes
 * (an escape inside a JSON string inside JSON); percent-encoded, once or twice; as an HTML/XML
 * character reference, decimal or hex, its `&` itself escaped any number of times (`&amp;#95;`),
 * the `;` optional as HTML parses it; an underscore as BibTeX and LaTeX write it (`\_`, `{\_}`,
 * `\textunderscore`, `{\textunderscore}`) or as its named entity (`&lowbar;`, `&UnderBar;`). A run
 * of backslashes is consumed whole, so a JSON text stays JSON after the match is replaced.
 */
function formsOf(ch: string): string {
  const code = ch.codePointAt(0) ?? 0;
  const hex = (n: number, width: number) =>
    [...n.toString(16).padStart(width, "0")]
      .map((d) => (/[a-f]/.test(d) ? `[${d}${d.toUpperCase()}]` : d))
      .join("");
  const forms = [ch.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&")];
  if (code <= 0xffff) forms.push(`\\\\+u${hex(code, 4)}`);
  if (code < 0x80) {
    forms.push(`%(?:25)*${hex(code, 2)}`);
    forms.push(`&(?:amp;)*#(?:0*${code}|[xX]0*${hex(code, 1).replace(/^0+(?=.)/, "")});?`);
  }
  if (ch === "_") forms.push("\\\\+_", "\\\\+textunderscore(?:\\{\\})?", "&(?:amp;)*(?:lowbar|UnderBar);");
  return `(?:${forms.join("|")})`;
}

/**
 * What may stand between two of its characters: whitespace or a line break (an exporter folding a
 * long line, a field wrapped, evidence.md joining lines with a space), as itself or as a JSON escape
 * (`\n`, `\u0020`) behind any run of backslashes, and BibTeX's protecting braces (`{A}`, `{-}`,
 * `{\_}`, `{\textunderscore}`). The placeholder replaces the whole span, so a split token is never
 * joined back together anywhere.
 */
const BETWEEN = "(?:[\\s{}]|\\\\+(?:[nrt]|u00(?:0[9aAdD]|20)))*";

interface Forms {
  pattern: RegExp;
  /**
   * Its first and last four characters. Unless a character of it is escaped (the text then holds
   * one of ESCAPE_MARKS), every form of it holds one of them as written, or it is split within them,
   * and then a piece of one to three of its first or last characters stands beside a separator
   * (splitNearEnds). A text with none of these cannot hold it, and most answers skip the pattern.
   */
  ends: [string, string];
}

/** Marks of the escaped forms: a text with none of them holds each character as itself (or split). */
const ESCAPE_MARKS = ["%", "u00", "\\_", "textunderscore"];
/** The character and named references' marks, asked only of a text holding an `&` (a title's "R&D" is not one). */
const REFERENCE_MARKS = ["&#", "&amp;", "&lowbar;", "&UnderBar;"];

/** Each secret's forms, worked out once per secret. */
const formsBySecret = new Map<string, Forms>();
function formsFor(secret: string): Forms {
  let forms = formsBySecret.get(secret);
  if (!forms) {
    // Any backslashes just before it go too: in a JSON text `\nAb…` holds a token starting `nAb`,
    // and replacing it alone would leave a lone backslash, and a frame that is no longer JSON.
    const pattern = new RegExp(`\\\\*${[...secret].map(formsOf).join(BETWEEN)}`, "g");
    forms = { pattern, ends: [secret.slice(0, 4), secret.slice(-4)] };
    formsBySecret.set(secret, forms);
  }
  return forms;
}

const SPACE = /\s/;
/** Whether a separator of BETWEEN starts at `at` (whitespace, a brace, or a JSON `\n`, `\r`, `\t`). */
function separatorAt(text: string, at: number): boolean {
  const c = text[at];
  if (c === undefined) return false;
  if (c === "{" || c === "}" || SPACE.test(c)) return true;
  let k = at;
  while (text[k] === "\\") k++;
  return k > at && (text[k] === "n" || text[k] === "r" || text[k] === "t");
}
/** Whether a separator of BETWEEN ends just before `at`. */
function separatorBefore(text: string, at: number): boolean {
  const c = text[at - 1];
  if (c === undefined) return false;
  if (c === "{" || c === "}" || SPACE.test(c)) return true;
  return (c === "n" || c === "r" || c === "t") && text[at - 2] === "\\";
}

/**
 * Whether one to three of the secret's first characters stand before a separator, or its last ones
 * after one: where a split within its first or last four would leave them. A loop over indexOf,
 * not a pattern: a pattern with this alternation scans a 20 KB answer in ~100 µs, this in a few.
 */
function splitNearEnds(text: string, secret: string): boolean {
  const first = secret[0] ?? "";
  for (let i = text.indexOf(first); i !== -1; i = text.indexOf(first, i + 1)) {
    for (let n = 1; n <= 3 && text.startsWith(secret.slice(0, n), i); n++)
      if (separatorAt(text, i + n)) return true;
  }
  const last = secret[secret.length - 1] ?? "";
  for (let j = text.indexOf(last); j !== -1; j = text.indexOf(last, j + 1)) {
    // A piece of n ends at j: it starts at j + 1 - n.
    for (let n = 1; n <= 3; n++) {
      const start = j + 1 - n;
      if (start < 0 || !text.startsWith(secret.slice(-n), start)) break;
      if (separatorBefore(text, start)) return true;
    }
  }
  return false;
}

/** Whether the text could hold the secret in some form: the pattern runs only where this is true. */
function mayHold(text: string, secret: string, forms: Forms): boolean {
  if (text.includes(forms.ends[0]) || text.includes(forms.ends[1])) return true;
  for (const mark of ESCAPE_MARKS) if (text.includes(mark)) return true;
  if (text.includes("&")) for (const mark of REFERENCE_MARKS) if (text.includes(mark)) return true;
  return splitNearEnds(text, secret);
}

export function scrub(text: string): string {
  let out = text;
  if (secrets.size > 0) {
    for (const secret of secrets) {
      const forms = formsFor(secret);
      if (mayHold(out, secret, forms)) out = out.replace(forms.pattern, PLACEHOLDER);
    }
  }
  // The regex only where it can match: on a 50 KB frame with non-Latin-1 text (a page of paper
  // titles) it costs ~30 µs, and `includes` finds no "Bearer" in a fraction of that.
  return out.includes("Bearer") ? out.replace(BEARER, `Bearer ${PLACEHOLDER}`) : out;
}

/** A JSON-shaped value with every string in it scrubbed (the value itself when nothing needed it). */
export function scrubJson<T>(value: T): T {
  const text = JSON.stringify(value);
  const clean = scrub(text);
  if (clean === text) return value;
  try {
    return JSON.parse(clean) as T;
  } catch {
    // A replacement that left the text no longer JSON (none is known): scrub string by string instead.
    return scrubStrings(value) as T;
  }
}

function scrubStrings(value: unknown): unknown {
  if (typeof value === "string") return scrub(value);
  if (Array.isArray(value)) return value.map(scrubStrings);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[scrub(k)] = scrubStrings(v);
    return out;
  }
  return value;
}

// C0 and C1 control characters and DEL: never written as themselves where resmon's text is echoed.
const CONTROL = "[\\u0000-\\u001f\\u007f-\\u009f]";
const HAS_CONTROL = new RegExp(CONTROL);
const CONTROLS = new RegExp(CONTROL, "g");

/**
 * Text as it may be printed or said (issue 34): every control character written out as `\u001b`,
 * so resmon's own text (a health version, a reason) can neither start a line of its own on stderr
 * (a forged `start-up check:`) nor drive a terminal (ESC, BEL, OSC 52's clipboard write, `ESC[2J`).
 */
export function printable(text: string): string {
  return HAS_CONTROL.test(text)
    ? text.replace(CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
    : text;
}
