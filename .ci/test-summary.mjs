// Sums the vitest JSON reports each package wrote and prints one closing line,
// "N passed, N failed, N skipped", so a reader of CI's log gets the count at the end.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const roots = ["tools", ...readdirSync("packages").map((p) => join("packages", p))];
let passed = 0;
let failed = 0;
let skipped = 0;
let reports = 0;
for (const dir of roots) {
  const file = join(dir, ".test-results", "vitest.json");
  if (!existsSync(file)) continue;
  const report = JSON.parse(readFileSync(file, "utf8"));
  reports += 1;
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}
if (reports === 0) {
  console.error("no vitest reports were written: no test ran");
  process.exit(1);
}
console.log(`${reports} vitest reports`);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
