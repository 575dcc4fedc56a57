import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { startFront } from "../src/front.js";

/**
 * Found by `pnpm reliability` (a 16 MB line took seconds before the session answered): the front
 * re-scanned everything pending for a newline on every chunk, quadratic in a line's length.
 */
describe("the start-up front and a many-megabyte line", () => {
  it("buffers a 16 MB line arriving in 16 KB chunks in linear time", async () => {
    const input = new PassThrough();
    startFront({
      readOnly: false,
      input,
      write: () => undefined,
      // Never finishes loading, so the front keeps the line pending the whole time.
      loadFull: () => new Promise(() => undefined),
      onEnd: () => undefined,
    });
    const chunk = "y".repeat(16 * 1024);
    const started = performance.now();
    for (let i = 0; i < 1024; i++) input.write(chunk);
    input.write("\n");
    await new Promise((resolve) => setImmediate(resolve));
    // Linear is tens of milliseconds; the quadratic scan took seconds.
    expect(performance.now() - started).toBeLessThan(1500);
  });
});
