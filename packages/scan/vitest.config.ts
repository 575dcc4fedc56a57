import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "scan",
    include: ["test/**/*.test.ts"],
    reporters: ["default", ["json", { outputFile: ".test-results/vitest.json" }]],
  },
});
