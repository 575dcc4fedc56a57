import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "mcp-server",
    include: ["test/**/*.test.ts"],
    // A hang guard, not a speed bound: a test that proves a time bound asserts it itself, with a wide
    // margin (issue 32). vitest's 5 s default failed a wall-time-driven case on a loaded 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The JSON report feeds the pass/fail summary line that .ci/run prints.
    reporters: ["default", ["json", { outputFile: ".test-results/vitest.json" }]],
    // The files share no state through the modules they import, and re-importing the MCP SDK per
    // file was most of the suite's time on a 2-core machine.
    isolate: false,
  },
});
