/**
 * What the published bundle keeps in memory (issue 31), checked on the built files: the bin sizes
 * the young generation first (src/bin/young-generation.ts).
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const DIST = join(import.meta.dirname, "..", "dist");
describe("the published bundle", () => {
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
