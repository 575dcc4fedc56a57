/**
 * The second layer of token hygiene. The first is that no code path puts the token into an
 * answer or a log; this one replaces any token this process has read with a placeholder in
 * everything written to stdout and stderr, in case the first ever fails.
 */
/**
 * Every secret this process read. The bin's CommonJS front has its own copy of this module and
 * never reads the token; the SDK side, which reads it, scrubs every frame and log line it writes.
 */
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
 * its own (issue 34): as itself; as a JSON `\uXXXX` escape behind any run of backslashes (an
 * escape inside a JSON string inside JSON); percent-encoded, once or twice; an underscore as
 * BibTeX writes it (`\_`, `{\_}`, `\textunderscore`). A run of backslashes is consumed whole, so
 * a JSON text stays JSON after the match is replaced.
 */
function formsOf(ch: string): string {
  const code = ch.codePointAt(0) ?? 0;
  const hex = (n: number, width: number) =>
    [...n.toString(16).padStart(width, "0")]
      .map((d) => (/[a-f]/.test(d) ? `[${d}${d.toUpperCase()}]` : d))
      .join("");
  const forms = [ch.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&")];
  if (code <= 0xffff) forms.push(`\\\\+u${hex(code, 4)}`);
  if (code < 0x80) forms.push(`%(?:25)*${hex(code, 2)}`);
  if (ch === "_") forms.push("\\\\+_", "\\{\\\\+_\\}", "\\\\+textunderscore(?:\\{\\})?");
  return `(?:${forms.join("|")})`;
}

interface Forms {
  pattern: RegExp;
  /**
   * Its longest stretch between underscores: every form holds it as written unless some character
   * is percent-encoded or \u-escaped, and then the text holds a `%` or a `u00`. A text with none
   * of the three cannot hold the secret in any form, and most answers skip the pattern.
   */
  piece: string;
}

/** Each secret's forms, worked out once per secret. */
const formsBySecret = new Map<string, Forms>();
function formsFor(secret: string): Forms {
  let forms = formsBySecret.get(secret);
  if (!forms) {
    // Any backslashes just before it go too: in a JSON text `\nAb…` holds a token starting `nAb`,
    // and replacing it alone would leave a lone backslash, and a frame that is no longer JSON.
    const pattern = new RegExp(`\\\\*${[...secret].map(formsOf).join("")}`, "g");
    const piece = secret.split("_").reduce((a, b) => (b.length > a.length ? b : a), "");
    forms = { pattern, piece };
    formsBySecret.set(secret, forms);
  }
  return forms;
}

export function scrub(text: string): string {
  let out = text;
  if (secrets.size > 0) {
    const escaped = out.includes("%") || out.includes("u00");
    for (const secret of secrets) {
      const { pattern, piece } = formsFor(secret);
      if (escaped || out.includes(piece)) out = out.replace(pattern, PLACEHOLDER);
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
