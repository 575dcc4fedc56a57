import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "api-client",
    include: ["test/**/*.test.ts"],
    // The JSON report feeds the pass/fail summary line that .ci/run prints.
    reporters: ["default", ["json", { outputFile: ".test-results/vitest.json" }]],
  },
});
