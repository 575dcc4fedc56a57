import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "contract",
    include: ["test/**/*.test.ts"],
    // The JSON report feeds the pass/fail summary line that .ci/run prints.
    reporters: ["default", ["json", { outputFile: ".test-results/vitest.json" }]],
  },
});
