import { describe, expect, it } from "vitest";
import { mapApiError } from "../src/backend/http-errors.js";

/** Found by `pnpm reliability`: a 50 KB+ list_watch_profiles `kind` rides in the URL and resmon's HTTP server answers 431. */
describe("a request too large for resmon's HTTP server", () => {
  for (const status of [413, 414, 431]) {
    it(`HTTP ${status} is invalid_argument, not internal_error`, () => {
      const err = mapApiError({ kind: "http", status, message: "too large" }, "http://127.0.0.1:1", {});
      expect(err.code).toBe("invalid_argument");
      expect(err.detail).toEqual({ status });
    });
  }
});
