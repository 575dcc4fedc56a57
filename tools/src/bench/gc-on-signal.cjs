// Bench only, preloaded into the server under test (node --expose-gc -r): on SIGUSR2, a full garbage
// collection, then process.memoryUsage() written to RESMON_BENCH_GC_FILE, so the memory rows read
// RSS after a collection rather than wherever the collector happened to be.
const { writeFileSync } = require("node:fs");

process.on("SIGUSR2", () => {
  globalThis.gc?.();
  writeFileSync(process.env.RESMON_BENCH_GC_FILE ?? "", JSON.stringify(process.memoryUsage()));
});
