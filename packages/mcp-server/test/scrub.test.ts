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
