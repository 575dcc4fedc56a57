/**
 * `pnpm figures`: prints every figure the docs quote, computed (after `pnpm build`), and where each
 * doc quotes it. `--check` exits 1 when a doc quotes a stale figure; `--write` rewrites the docs.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "../pack-snippets.js";
import { docFiles, problems, quotes, rewrite } from "./check.js";
import { computeFigures } from "./compute.js";

let figures = await computeFigures();
const mode = process.argv.includes("--write")
  ? "write"
  : process.argv.includes("--check")
    ? "check"
    : "print";

/** Rewrites every doc; true when one changed. */
function writeDocs(): boolean {
  let changed = false;
  for (const file of docFiles(REPO_ROOT)) {
    const path = join(REPO_ROOT, file);
    const text = readFileSync(path, "utf8");
    const next = rewrite(file, text, figures);
    if (next !== text) {
      writeFileSync(path, next);
      process.stdout.write(`rewrote ${file}\n`);
      changed = true;
    }
  }
  return changed;
}

// The server's README is inside its tarball: a rewrite can move the tarball's size, so go again.
if (mode === "write") {
  for (let pass = 0; pass < 3 && writeDocs(); pass++) figures = await computeFigures();
}

const where = new Map<string, string[]>();
for (const file of docFiles(REPO_ROOT)) {
  for (const q of quotes(file, readFileSync(join(REPO_ROOT, file), "utf8")).quotes) {
    where.set(q.figure, [...(where.get(q.figure) ?? []), `${file}:${q.line}`]);
  }
}
if (mode === "print") {
  const width = Math.max(...Object.keys(figures).map((id) => id.length));
  for (const [id, f] of Object.entries(figures)) {
    const files = [...new Set((where.get(id) ?? []).map((p) => p.split(":")[0]))];
    const quoted = files.length ? `; quoted in ${files.join(", ")}` : "";
    // Tab-separated: a value may hold a space ("194 ms"); a rendered block's newlines print as \n.
    process.stdout.write(`${id.padEnd(width)}\t${f.value.replaceAll("\n", "\\n")}\t${f.what}${quoted}\n`);
  }
}
const stale = problems(REPO_ROOT, figures);
for (const p of stale) process.stderr.write(`${p.file}${p.line ? `:${p.line}` : ""}: ${p.message}\n`);
if (stale.length > 0) {
  process.stderr.write(`${stale.length} stale figure(s): \`pnpm figures --write\` rewrites them\n`);
  process.exit(mode === "print" ? 0 : 1);
}
