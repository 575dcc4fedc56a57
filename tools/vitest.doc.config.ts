import { defineConfig } from "vitest/config";
import { DOC_REPLAY } from "./vitest.config.js";

// `pnpm test:doc`: docs/adding-a-tool.md followed in copies of the checkout, each built and tested.
// Its own step of .ci/run, after `pnpm test`; its report sits beside vitest.json, so the closing
// summary counts it.
export default defineConfig({
  test: {
    name: "tools (doc replay)",
    include: [DOC_REPLAY],
    // A hang guard: each case sets its own (the copies' commands take minutes on a loaded machine).
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ["default", ["json", { outputFile: ".test-results/doc-replay.json" }]],
  },
});
