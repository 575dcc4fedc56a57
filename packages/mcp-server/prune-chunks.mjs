// Removes every file in dist/chunks/ that the bundled bin does not import, directly or through
// another chunk (the bin, dist/resmon-mcp.cjs, imports only dist/sdk-side.js; the chunks hang from that). build.mjs clears dist/chunks/ before it bundles, but a turbo cache hit restores a
// build's outputs over the folder without clearing it, which can leave chunks of other builds
// behind; this runs before `pnpm pack` (prepack) so a tarball never carries one.
import { readdir, readFile, rm } from "node:fs/promises";

const dist = new URL("./dist/", import.meta.url);
const chunks = new URL("./chunks/", dist);
const IMPORT = /(?:from\s*|import\s*\(\s*)"\.\/(?:chunks\/)?([^"/]+\.js)"/g;

const reached = new Set();
const pending = [new URL("sdk-side.js", dist)];
while (pending.length > 0) {
  const file = pending.pop();
  const text = await readFile(file, "utf8");
  for (const [, name] of text.matchAll(IMPORT)) {
    if (reached.has(name)) continue;
    reached.add(name);
    pending.push(new URL(name, chunks));
  }
}
let removed = 0;
for (const name of await readdir(chunks)) {
  if (reached.has(name)) continue;
  await rm(new URL(name, chunks));
  removed += 1;
}
if (removed > 0) process.stderr.write(`prune-chunks: removed ${removed} chunk(s) the bin does not import\n`);
