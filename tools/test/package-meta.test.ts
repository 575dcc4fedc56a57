/**
 * What a newcomer reads first about a package: its package.json description and its CHANGELOG
 * (issue 43: both still said contract 1.0/1.1 and 25 tools at contract 1.4). Each names the current
 * contract or no version, and no tool count other than the table's.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CONTRACT_VERSION, TOOLS } from "@resmon/mcp-contract";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../src/pack-snippets.js";

const PACKAGES = ["contract", "mcp-server", "api-client"];

function mentions(text: string): { versions: string[]; counts: number[] } {
  return {
    versions: [...text.matchAll(/\bcontract (\d+\.\d+)\b/gi)].map((m) => m[1] as string),
    counts: [...text.matchAll(/\b(\d+)[- ]tools?\b/gi)].map((m) => Number(m[1])),
  };
}

describe("package descriptions and changelogs", () => {
  for (const pkg of PACKAGES) {
    const dir = join(REPO_ROOT, "packages", pkg);
    const description = (
      JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { description: string }
    ).description;
    const changelog = readFileSync(join(dir, "CHANGELOG.md"), "utf8");
    for (const [what, text] of [
      ["package.json description", description],
      ["CHANGELOG.md", changelog],
    ] as const) {
      it(`${pkg}'s ${what} names contract ${CONTRACT_VERSION} or none, and no other tool count`, () => {
        const { versions, counts } = mentions(text);
        for (const v of versions) expect(v, text).toBe(CONTRACT_VERSION);
        for (const n of counts) expect(n, text).toBe(TOOLS.length);
      });
    }
  }

  it("catches what it is for: contract 1.0 and a 25-tool table", () => {
    expect(mentions("The surface (contract 1.0): the 25-tool table")).toEqual({
      versions: ["1.0"],
      counts: [25],
    });
  });
});
