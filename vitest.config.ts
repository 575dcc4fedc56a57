import { defineConfig } from "vitest/config";

// One project per workspace package; each package's own vitest.config.ts names its tests.
export default defineConfig({
  test: {
    projects: ["packages/*", "tools"],
  },
});
