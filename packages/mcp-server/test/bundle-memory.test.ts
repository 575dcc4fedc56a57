/**
 * What the published bundle keeps in memory (issue 31), checked on the built files (build.mjs):
 * every script is ASCII (V8 keeps a script with one non-Latin-1 character as two bytes a character),
 * Ajv is not bundled (the server passes its own validator, src/bin/sdk-shims.ts), zod brings only
 * its English locale, and the bin sizes the young generation first (src/bin/young-generation.ts).
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const DIST = join(import.meta.dirname, "..", "dist");
const scripts = [
  join(DIST, "resmon-mcp.cjs"),
  join(DIST, "sdk-side.js"),
  ...readdirSync(join(DIST, "chunks")).map((name) => join(DIST, "chunks", name)),
];
const all = scripts.map((file) => ({ file, text: readFileSync(file, "utf8") }));

describe("the published bundle", () => {
  it("is ASCII only, so V8 keeps each script one byte a character", () => {
    expect(all.filter(({ text }) => /[\u0080-\uffff]/.test(text)).map(({ file }) => file)).toEqual([]);
  });

  it("bundles no Ajv and only zod's English locale", () => {
    expect(
      all.filter(({ text }) => /new Ajv\b|ajv\/dist|ajvProvider/.test(text)).map(({ file }) => file),
    ).toEqual([]);
    const zodLocales = all.flatMap(({ text }) =>
      [...text.matchAll(/zod\/v4\/locales\/(\w+)\.js/g)].map((m) => m[1]),
    );
    // "index" is the locales module build.mjs rewrites to export English alone.
    expect([...new Set(zodLocales)].filter((l) => l !== "index")).toEqual(["en"]);
  });

  it("starts with the young generation sized: no growth of the new space past its first size", () => {
    // The bin's first module sets the growth factor; a script run the same way sees the flag.
    const probe =
      'import(require("node:url").pathToFileURL(process.argv[1]).href).then(()=>{const v8=require("node:v8");' +
      "let k=[];for(let i=0;i<2e6;i++){k.push({i});if(k.length>500)k=[]}" +
      'console.log(v8.getHeapSpaceStatistics().find((x)=>x.space_name==="new_space").space_size)})';
    const young = join(DIST, "bin", "young-generation.js");
    const run = (args: string[]) =>
      Number(spawnSync(process.execPath, ["-e", probe, ...args], { encoding: "utf8" }).stdout.trim());
    const sized = run([young]);
    const grown = run([join(DIST, "version.js")]);
    expect(sized).toBeLessThanOrEqual(4 * 2 ** 20);
    expect(grown).toBeGreaterThan(sized);
    expect(readFileSync(join(DIST, "resmon-mcp.cjs"), "utf8")).toMatch(/semi-space-growth-factor=1/);
  });
});
