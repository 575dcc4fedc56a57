import { describe, expect, it } from "vitest";
import { registerSecret, scrub } from "../src/scrub.js";

describe("scrub, the second layer", () => {
  const token = "Zm9vYmFyYmF6cXV4LXRva2VuLXZhbHVlLTQzLWNoYXJz_ab";

  it("removes a registered token wherever it appears, keys included", () => {
    registerSecret(`${token}\n`);
    expect(scrub(`before ${token} after`)).toBe("before <redacted> after");
    expect(scrub(JSON.stringify({ [token]: [`x${token}`] }))).toBe('{"<redacted>":["x<redacted>"]}');
  });

  it("removes any bearer credential, registered or not", () => {
    expect(scrub("Authorization: Bearer abcdefghijklmnopqrstuvwxyz0123")).toBe(
      "Authorization: Bearer <redacted>",
    );
  });

  it("leaves ordinary text alone, including the word Bearer", () => {
    expect(scrub("Bearer bonds and their holders")).toBe("Bearer bonds and their holders");
  });

  it("ignores values too short to be a token", () => {
    registerSecret("short");
    expect(scrub("a short note")).toBe("a short note");
  });
});
