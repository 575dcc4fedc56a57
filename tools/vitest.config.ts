import { configDefaults, defineConfig } from "vitest/config";

/** The doc replay: minutes of copies built and tested, run by `pnpm test:doc` (its own .ci/run step). */
export const DOC_REPLAY = "test/adding-a-tool.test.ts";

export default defineConfig({
  test: {
    name: "tools",
    include: ["test/**/*.test.ts"],
    // Not in `pnpm test`: it alone took 382-609 s, most of the old run (issue 43). `.ci/run` runs it
    // right after, with `pnpm test:doc` (vitest.doc.config.ts).
    exclude: [...configDefaults.exclude, DOC_REPLAY],
    // A hang guard, not a speed bound: a test that proves a time bound asserts it itself, with a wide
    // margin (issue 32). vitest's 5 s default failed a wall-time-driven case on a loaded 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Many of these files wait on child processes (npm installs, servers over stdio, the demo's
    // backend): one file at a time (vitest's default on 2 cores) put their waits end to end, 134 s
    // for api-client-outside alone (issue 43). Three at once overlap them.
    maxWorkers: 3,
    // The JSON report feeds the pass/fail summary line that .ci/run prints.
    reporters: ["default", ["json", { outputFile: ".test-results/vitest.json" }]],
  },
});
