import { existsSync, readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { READ_TOOLS, ROUTES, TOOLS, WRITE_TOOLS } from "../src/index.js";
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

/**
 * The docs state no count of the tools, reads, writes, routes or resmon's operations (a count the figures mechanism
 * computes, in tools/src/figures/places.ts, is the one exception: generated, so never stale). A
 * count in prose would have to be edited by hand with every tool added, and they drifted ("the same
 * 18 names" when there were 19 reads; "25, 25, 18" when the bundle listed 29, 29, 19).
 */
describe("the counts the docs state", () => {
  const counts = [
    /\b(\d+)[ -]tool\b|\b(\d+) tools\b/g,
    /\b(\d+) reads?\b|\b(\d+) read tools\b|\b(\d+) read-only\b/g,
    /\b(\d+) writes?\b|\b(\d+) write tools\b/g,
    /\b(\d+) (?:names|routes|operations|(?:method[+-](?:and-)?path )?pairs)\b/g,
  ];
  it.each(DOCS.map((f) => [f]))("%s states none (but of contract 1.0's)", (file) => {
    // A block `pnpm figures --write` renders from a recorded run (<!-- name:begin --> to its end)
    // is generated, as the figures are: its counts are the run's, never stale prose.
    const text = readFileSync(REPO_ROOT + file, "utf8").replace(
      /<!-- ([a-z-]+):begin -->[\s\S]*?<!-- \1:end -->/g,
      "",
    );
    // A count a line ties to contract 1.0 (a measurement, the spec's own) stays true of 1.0.
    const current = text
      .split("\n")
      .filter((line) => !line.includes("1.0"))
      .join("\n");
    const stated = counts.flatMap((pattern) => [...current.matchAll(pattern)].map((m) => m[0]));
    expect(stated, `counts of the surface in ${file}: say "every tool", "the reads", or nothing`).toEqual([]);
  });

  it("the check finds a count, even one the table would agree with", () => {
    const line = `the same ${READ_TOOLS.length} names, ${TOOLS.length} tools and ${WRITE_TOOLS.length} writes`;
    expect(counts.flatMap((p) => [...line.matchAll(p)])).toHaveLength(3);
    const routes = `its ${ROUTES.length} method+path pairs of resmon's 200 operations`;
    expect(counts.flatMap((p) => [...routes.matchAll(p)])).toHaveLength(2);
  });
});
