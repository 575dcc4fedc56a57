// Bench only, preloaded into the server under test (node --expose-gc -r): on SIGUSR2, a full garbage
// collection, then process.memoryUsage() written to RESMON_BENCH_GC_FILE, so the memory rows read
// RSS after a collection rather than wherever the collector happened to be.
// Written aside and renamed, so the bench never reads a half-written file (it did, at load 27).
const { renameSync, writeFileSync } = require("node:fs");

process.on("SIGUSR2", () => {
  globalThis.gc?.();
  const file = process.env.RESMON_BENCH_GC_FILE ?? "";
  writeFileSync(`${file}.tmp`, JSON.stringify(process.memoryUsage()));
  renameSync(`${file}.tmp`, file);
});
