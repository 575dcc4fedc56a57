import { existsSync, readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { READ_TOOLS, TOOLS, WRITE_TOOLS } from "../src/index.js";
import { REPO_ROOT } from "./support/shared.js";

const README = `${REPO_ROOT}contract/README.md`;

describe.skipIf(!existsSync(README))("contract/README.md", () => {
  it("lists every tool, in order, with its class, confirmation flag and title (pnpm generate)", () => {
    const text = readFileSync(README, "utf8");
    const rows = [
      ...text.matchAll(/^\| `([a-z_]+)`\s*\| (read|write)\s*\| (true|false)\s*\| ([^|]*?)\s*\|/gm),
    ].map((m) => [m[1], m[2], m[3], m[4]]);
    expect(rows).toEqual(TOOLS.map((t) => [t.name, t.kind, String(t.requiresConfirmation), t.title]));
  });
});

/** The docs a reader takes counts from (not changelogs or dated bench results). */
const DOCS = [
  "README.md",
  "contract/README.md",
  ...readdirSync(`${REPO_ROOT}packages`).map((p) => `packages/${p}/README.md`),
  ...(existsSync(`${REPO_ROOT}docs`)
    ? readdirSync(`${REPO_ROOT}docs`)
        .filter((f) => f.endsWith(".md"))
        .map((f) => `docs/${f}`)
    : []),
].filter((f) => existsSync(REPO_ROOT + f));

describe("the counts the docs state", () => {
  const counts: [RegExp, number][] = [
    [/\b(\d+)[ -]tool\b|\b(\d+) tools\b/g, TOOLS.length],
    [/\b(\d+) reads?\b|\b(\d+) read tools\b|\b(\d+) read-only\b/g, READ_TOOLS.length],
    [/\b(\d+) writes?\b|\b(\d+) write tools\b/g, WRITE_TOOLS.length],
  ];
  it.each(DOCS.map((f) => [f]))("%s counts the tools as the table does", (file) => {
    const text = readFileSync(REPO_ROOT + file, "utf8");
    const wrong: string[] = [];
    // A count a line ties to contract 1.0 (a measurement, the spec's own) stays true of 1.0.
    const current = text
      .split("\n")
      .filter((line) => !line.includes("1.0"))
      .join("\n");
    for (const [pattern, count] of counts) {
      for (const m of current.matchAll(pattern)) {
        const n = Number(m.slice(1).find((g) => g !== undefined));
        if (n !== count) wrong.push(`"${m[0]}" (the table has ${count})`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
