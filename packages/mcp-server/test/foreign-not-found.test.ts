import { describe, expect, it } from "vitest";
import { mapApiError } from "../src/backend/http-errors.js";

/**
 * Found by `pnpm reliability`: when another program took resmon's port while this server held a
 * connection, its bare 404s read as "resmon has no such item" on every call, for good.
 */
describe("a 404 without resmon's error body", () => {
  const url = "http://127.0.0.1:1";

  it("is backend_unavailable (not_resmon), not not_found", () => {
    const err = mapApiError({ kind: "http", status: 404, message: "HTTP 404" }, url, {});
    expect(err.code).toBe("backend_unavailable");
    expect(err.detail).toMatchObject({ status: 404, reason: "not_resmon", tried: [url] });
  });

  it("resmon's own 404 (a JSON detail) is still not_found", () => {
    const err = mapApiError(
      { kind: "http", status: 404, detail: "Routine 9 not found", message: "HTTP 404" },
      url,
      {},
    );
    expect(err.code).toBe("not_found");
    expect(err.message).toBe("Routine 9 not found");
  });
});
