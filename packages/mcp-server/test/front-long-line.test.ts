import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { startStdio } from "../src/protocol/stdio.js";

/**
 * Found by `pnpm reliability` (a 16 MB line took seconds before the session answered): the front
 * re-scanned everything pending for a newline on every chunk, quadratic in a line's length. The
 * one line reader of the stdio entry keeps the pieces and joins them once.
 */
describe("the stdio entry and a many-megabyte line", () => {
  it("buffers a 16 MB line arriving in 16 KB chunks in linear time, and answers it", async () => {
    const input = new PassThrough();
    const written: string[] = [];
    startStdio({
      readOnly: false,
      input,
      output: { write: (frame: string) => written.push(frame) > 0, once: () => undefined as never },
      // Never finishes loading: the reader alone handles the line.
      load: () => new Promise(() => undefined),
      onEnd: () => undefined,
    });
    const chunk = "y".repeat(16 * 1024);
    const started = performance.now();
    for (let i = 0; i < 1024; i++) input.write(chunk);
    input.write("\n");
    await new Promise((resolve) => setImmediate(resolve));
    // Linear is tens of milliseconds; the quadratic scan took seconds.
    expect(performance.now() - started).toBeLessThan(1500);
    expect(written.map((frame) => JSON.parse(frame))).toEqual([
      { jsonrpc: "2.0", id: null, error: { code: -32600, message: expect.stringContaining("10 MiB") } },
    ]);
  });
});
