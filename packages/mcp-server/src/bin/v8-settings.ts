/**
 * V8 settings for a stdio server, set by the bin itself before it loads the SDK, so no harness's
 * configuration has to (issue 31). Pays in memory held: RSS after 10,000 calls and the peak (the
 * bench's memory rows, against a build without them: tools/bench/RESULTS.md, issue 42).
 * - The young generation stays at its first size (1 MiB a semi-space): V8 grows it to 2 × 16 MiB,
 *   which a server answering one call at a time never needs and then keeps resident (RSS after
 *   10,000 calls 129 MiB against 105). `--max-semi-space-size` is read only when the heap is made,
 *   before any code runs; the growth factor is read each time the new space would grow. A
 *   `--max-semi-space-size` given to node is left as given.
 * - The old generation grows by a fifth over what the last full collection left (V8 lets a small
 *   heap grow up to 4×): a call promotes what lives across its backend request, and the old space
 *   filled with it to ~78 MiB for a live heap of ~20 (peak RSS 108-141 MiB over 10,000 health
 *   calls, against 80-88 at 20 %; server CPU a call the same within noise).
 */
import { setFlagsFromString } from "node:v8";

export function applyV8Settings(): void {
  if (!process.execArgv.some((arg) => arg.startsWith("--max-semi-space-size"))) {
    setFlagsFromString("--semi-space-growth-factor=1");
  }
  setFlagsFromString("--heap-growing-percent=20");
}
