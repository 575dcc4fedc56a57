/**
 * What the published bundle keeps in memory (issue 31), checked on the built files (build.mjs):
 * every script is ASCII (V8 keeps a script with one non-Latin-1 character as two bytes a character),
 * Ajv is not bundled (the server passes its own validator, src/bin/sdk-shims.ts), zod brings only
 * its English locale, and the bin sets V8 for a stdio server before it loads the SDK
 * (src/bin/v8-settings.ts).
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const DIST = join(import.meta.dirname, "..", "dist");
const BIN = join(DIST, "resmon-mcp.cjs");
const all = [{ file: BIN, text: readFileSync(BIN, "utf8") }];
const SETTINGS = join(DIST, "bin", "v8-settings.js");
/** A module that sets nothing, imported instead of the settings for the comparison. */
const NOTHING = join(DIST, "version.js");
/** Imports the module named by the first argument and applies its settings, if it has them. */
const APPLY =
  'import(require("node:url").pathToFileURL(process.argv[1]).href).then((m)=>{m.applyV8Settings?.();';
const BIN_TEXT = all[0]?.text ?? "";

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

  it("keeps the young generation sized: no growth of the new space past its first size", () => {
    // The bin sets the growth factor; a script that applies the settings the same way sees the flag.
    const probe =
      APPLY +
      'const v8=require("node:v8");' +
      "let k=[];for(let i=0;i<2e6;i++){k.push({i});if(k.length>500)k=[]}" +
      'console.log(v8.getHeapSpaceStatistics().find((x)=>x.space_name==="new_space").space_size)})';
    const run = (args: string[]) =>
      Number(spawnSync(process.execPath, ["-e", probe, ...args], { encoding: "utf8" }).stdout.trim());
    const sized = run([SETTINGS]);
    const grown = run([NOTHING]);
    expect(sized).toBeLessThanOrEqual(4 * 2 ** 20);
    expect(grown).toBeGreaterThan(sized);
    expect(BIN_TEXT).toMatch(/semi-space-growth-factor=1/);
  });

  it("carries no WebAssembly, so V8 has none to tier up", () => {
    // undici's HTTP parser (llhttp) was one, and its tier-up by TurboFan lifted the peak RSS 27-44
    // MiB at the first requests until the bin ran WebAssembly on Liftoff alone; the client now sends
    // with node:http (whose parser is native), and the flag went with it.
    expect(BIN_TEXT).not.toMatch(/WebAssembly\.(Module|Instance|compile|instantiate)/);
    expect(BIN_TEXT).not.toMatch(/--liftoff-only/);
  });

  it("grows the old generation by a fifth over what a full collection left", () => {
    // ~25 MiB live, collected, then 3,000 batches that each live across ~100 scavenges (promoted, as
    // what a call holds across its backend request is): the heap's highest total size.
    const probe =
      APPLY +
      'const v8=require("node:v8");' +
      "const live=Array.from({length:3e5},(_,i)=>({i,s:'x'+i}));gc();let max=0,keep=[];" +
      "for(let i=0;i<3000;i++){keep.push(Array.from({length:1000},(_,j)=>({j})));if(keep.length>100)keep.shift();" +
      "if(i%20===0)max=Math.max(max,v8.getHeapStatistics().total_heap_size)}console.log(max/2**20,live.length)})";
    const highest = (first: string) =>
      Number(
        spawnSync(process.execPath, ["--expose-gc", "-e", probe, first], { encoding: "utf8" }).stdout.split(
          " ",
        )[0],
      );
    const settled = highest(SETTINGS);
    // With only the young generation kept small, 99 MiB; with nothing set, ~60.
    expect(settled).toBeLessThan(50);
    expect(highest(NOTHING)).toBeGreaterThan(settled + 10);
    expect(BIN_TEXT).toMatch(/--heap-growing-percent=20/);
  });
});
