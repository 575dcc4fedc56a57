/**
 * Files a person opens carry no control character from resmon but tab and line feed (issue 41
 * point 5): a title holding ESC or BEL ran an OSC 52 clipboard write and a clear screen on
 * `cat evidence.md`.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { jsonWithoutControls, withoutControls } from "../src/no-controls.js";
import { FILES, ScanDir } from "../src/store.js";

const HOSTILE = "Folding\u001b]52;c;aGVsbG8=\u0007 \u001b[2J\u009b31m\u007f\u0000\r title\tend\nnext";
const CONTROL_CLASS = "[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f]";
const CONTROL = new RegExp(CONTROL_CLASS);

let root = "";
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

describe("no control characters in the files a person opens", () => {
  it("text: every C0 but tab and line feed, DEL and C1 go; the rest stays", () => {
    expect(withoutControls(HOSTILE)).toBe("Folding]52;c;aGVsbG8= [2J31m title\tend\nnext");
  });

  it("JSON: the escapes JSON.stringify writes for them go too, and the text stays the same JSON", () => {
    const text = JSON.stringify({ title: HOSTILE, literal: "a \\u001b stays text", n: 1 });
    const clean = jsonWithoutControls(text);
    const back = JSON.parse(clean) as Record<string, unknown>;
    expect(back.title).toBe("Folding]52;c;aGVsbG8= [2J31m title\tend\nnext");
    // An escaped backslash before u001b is the text "\u001b", not ESC: left as it was.
    expect(back.literal).toBe("a \\u001b stays text");
    expect(CONTROL.test(String(back.title))).toBe(false);
  });

  it("ScanDir writes evidence.md, .bib and .json without them, then scrubs (a token split by one is whole first)", () => {
    root = mkdtempSync(join(tmpdir(), "resmon-no-controls-"));
    const token = "Ab3_xY9-Qr7_Zk2mN4pL8sT1vW6uE0cF5gH9jK3dR2q";
    const dir = new ScanDir(root, "s1", (t) => t.replaceAll(token, "<redacted>"));
    dir.create();
    const split = `${token.slice(0, 10)}\u0007${token.slice(10)}`;
    for (const name of [FILES.md, FILES.bib]) {
      dir.writeText(name, `# ${HOSTILE} ${split}\n`);
      const written = readFileSync(dir.file(name), "utf8");
      expect(CONTROL.test(written), name).toBe(false);
      expect(written).toContain("<redacted>");
      expect(written).toContain("\tend\nnext");
    }
    dir.writeText(FILES.json, `${JSON.stringify({ title: HOSTILE }, null, 1)}\n`);
    const json = readFileSync(dir.file(FILES.json), "utf8");
    expect(json).not.toMatch(/\\u00(?:0[0-8b-f]|1[0-9a-f]|7f|[89][0-9a-f])|\\[bfr]/i);
    expect(CONTROL.test(String((JSON.parse(json) as { title: string }).title))).toBe(false);
  });
});
