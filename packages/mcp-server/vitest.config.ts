import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "mcp-server",
    include: ["test/**/*.test.ts"],
    // A hang guard, not a speed bound: a test that proves a time bound asserts it itself, with a wide
    // margin (issue 32). vitest's 5 s default failed a wall-time-driven case on a loaded 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Most of this suite's time is waiting (injected delays, child processes, timeouts): one file at
    // a time, vitest's default on 2 cores (cores - 1), ran 215 s of wall time on 40 s of CPU (issue 43). Four
    // files at once overlap the waits; the CPU they use still fits two cores.
    maxWorkers: 4,
    // The JSON report feeds the pass/fail summary line that .ci/run prints.
    reporters: ["default", ["json", { outputFile: ".test-results/vitest.json" }]],
    // The files share no state through the modules they import, and re-importing the MCP SDK per
    // file was most of the suite's time on a 2-core machine.
    isolate: false,
  },
});
