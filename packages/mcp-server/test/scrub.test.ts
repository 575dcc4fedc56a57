import { describe, expect, it } from "vitest";
import { registerSecret, scrub, scrubJson } from "../src/scrub.js";

describe("scrub, the second layer", () => {
  const token = "Zm9vYmFyYmF6cXV4LXRva2VuLXZhbHVlLTQzLWNoYXJz_ab";

  it("removes a registered token wherever it appears, keys included", () => {
    registerSecret(`${token}\n`);
    expect(scrub(`before ${token} after`)).toBe("before <redacted> after");
    expect(scrub(JSON.stringify({ [token]: [`x${token}`] }))).toBe('{"<redacted>":["x<redacted>"]}');
  });

  it("removes any bearer credential, registered or not", () => {
    expect(scrub("Authorization: Bearer abcdefghijklmnopqrstuvwxyz0123")).toBe(
      "Authorization: Bearer <redacted>",
    );
  });

  it("leaves ordinary text alone, including the word Bearer", () => {
    expect(scrub("Bearer bonds and their holders")).toBe("Bearer bonds and their holders");
  });

  describe("the token in the forms resmon or an export format writes it (issue 34)", () => {
    // Two underscores and a hyphen, as about half of resmon's 43-character tokens have.
    const t = "Ab3_xY9-Qr7_Zk2mN4pL8sT1vW6uE0cF5gH9jK3dR2q";
    registerSecret(t);
    const bibtex = t.replaceAll("_", "\\_");
    const hex = (c: string) => c.charCodeAt(0).toString(16).padStart(2, "0");
    const forms: [string, string][] = [
      ["BibTeX \\_", bibtex],
      ["BibTeX {\\_}", t.replaceAll("_", "{\\_}")],
      ["BibTeX \\_ inside a JSON string", JSON.stringify(bibtex).slice(1, -1)],
      ["BibTeX \\_ JSON-encoded twice", JSON.stringify(JSON.stringify(bibtex)).slice(3, -3)],
      ["JSON \\u escapes, every character", [...t].map((c) => `\\u00${hex(c)}`).join("")],
      [
        "JSON \\u escapes, upper-case hex, some characters",
        t.replace("_", "\\u005F").replace("-", "\\u002d"),
      ],
      ["percent-encoding, every character", [...t].map((c) => `%${hex(c).toUpperCase()}`).join("")],
      ["percent-encoding, the underscores only", t.replaceAll("_", "%5f")],
      ["percent-encoding, twice", t.replaceAll("_", "%255F")],
      // Issue 41: the spellings a known exporter also writes, a test per form.
      ["LaTeX {\\textunderscore}", t.replaceAll("_", "{\\textunderscore}")],
      ["LaTeX \\textunderscore{}", t.replaceAll("_", "\\textunderscore{}")],
      ["LaTeX \\textunderscore and a space", t.replaceAll("_", "\\textunderscore ")],
      ["BibTeX {-}", t.replaceAll("-", "{-}")],
      ["BibTeX braces protecting capitals", t[0] + t.slice(1).replace(/[A-Z]/g, "{$&}")],
      ["HTML/XML decimal &#95;", t.replaceAll("_", "&#95;")],
      [
        "HTML/XML decimal, every character, zero-padded",
        [...t].map((c) => `&#00${c.charCodeAt(0)};`).join(""),
      ],
      ["HTML/XML hex &#x5f;", t.replaceAll("_", "&#x5f;")],
      [
        "HTML/XML hex, upper case, every character",
        [...t].map((c) => `&#X${hex(c).toUpperCase()};`).join(""),
      ],
      ["HTML named &lowbar;", t.replaceAll("_", "&lowbar;")],
      ["HTML named &UnderBar;", t.replaceAll("_", "&UnderBar;")],
      ["HTML, the & escaped again (&amp;#95;)", t.replaceAll("_", "&amp;#95;")],
      ["HTML without the ; (as HTML parses it)", t.replaceAll("-", "&#45")],
      ["URL encoding of the hyphen and a letter", t.replace("-", "%2D").replace("A", "%41")],
      ["split by a space", `${t.slice(0, 20)} ${t.slice(20)}`],
      ["split by a line break", `${t.slice(0, 30)}\n${t.slice(30)}`],
      ["split by CRLF and an indent", `${t.slice(0, 9)}\r\n    ${t.slice(9)}`],
      ["split near both ends", `${t.slice(0, 2)} ${t.slice(2, 41)}\n${t.slice(41)}`],
      [
        "split by a line break, in a JSON string",
        JSON.stringify(`${t.slice(0, 12)}\n${t.slice(12)}`).slice(1, -1),
      ],
      ["split at every character", [...t].join(" ")],
    ];
    it.for(forms)("%s", ([, form]) => {
      const out = scrub(`title = {Echo ${form} end}`);
      expect(out).toBe("title = {Echo <redacted> end}");
    });

    it("a CSV field (quoted, quotes doubled) and a RIS line", () => {
      expect(scrub(`"say ""${bibtex}""",x\r\n`)).toBe(`"say ""<redacted>""",x\r\n`);
      expect(scrub(`TI  - ${t.replaceAll("_", "%5F")}\nER  - `)).toBe("TI  - <redacted>\nER  - ");
    });

    it("keeps a JSON text valid: scrubJson of a value carrying each form", () => {
      for (const [, form] of forms) {
        const out = scrubJson({ title: `x ${form} y`, n: 1 });
        expect(out).toEqual({ title: "x <redacted> y", n: 1 });
      }
      expect(scrubJson({ bib: `{${bibtex}}` })).toEqual({ bib: "{<redacted>}" });
    });

    it("leaves no lone backslash in a JSON text: a newline, then a token's tail after its leading n", () => {
      // The JSON text `\nQ4_…` spells the token `nQ4_…`; replacing only `nQ4_…` would leave `\<`.
      const n = "nQ4_hV8-Wz1_Lp5mK7rT2sY6uX0cB9gF3jD5aE8wR1t";
      registerSecret(n);
      const tail = n.slice(1);
      const frame = JSON.stringify({ text: `line\n${tail}`, bib: `x\n${tail.replaceAll("_", "\\_")}` });
      expect(JSON.parse(scrub(frame))).toEqual({ text: "line<redacted>", bib: "x<redacted>" });
      expect(scrubJson({ text: `line\n${tail}` })).toEqual({ text: "line<redacted>" });
    });

    it("a split token is replaced whole, never joined back together (issue 41)", () => {
      const md = `- Title: Echo ${t.slice(0, 25)} ${t.slice(25)} end`;
      const out = scrub(md);
      expect(out).toBe("- Title: Echo <redacted> end");
      expect(out.replace(/\s+/g, "")).not.toContain(t);
    });

    it("leaves escapes that spell something else alone", () => {
      const other = "a\\_b %5F \\u0041 Ab3\\_xY9 100%";
      expect(scrub(other)).toBe(other);
    });
  });

  it("ignores values too short to be a token", () => {
    registerSecret("short");
    expect(scrub("a short note")).toBe("a short note");
  });
});
