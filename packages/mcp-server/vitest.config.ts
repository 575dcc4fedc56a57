import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "mcp-server",
    include: ["test/**/*.test.ts"],
    // The JSON report feeds the pass/fail summary line that .ci/run prints.
    reporters: ["default", ["json", { outputFile: ".test-results/vitest.json" }]],
    // The files share no state through the modules they import, and re-importing the MCP SDK per
    // file was most of the suite's time on a 2-core machine.
    isolate: false,
  },
});
