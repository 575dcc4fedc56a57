/**
 * A young generation sized for a stdio server, set where the bin starts (cli.ts imports this
 * first), so no harness's configuration has to: V8 grows the new space of a busy process to
 * 2 × 16 MiB, which a server answering one call at a time never needs and then keeps resident
 * (issue 31: RSS after 10,000 calls 129 MiB against 105 for a bare server on the same SDK).
 * `--max-semi-space-size` is read only when the heap is made, before any code runs; the growth
 * factor is read each time the new space would grow, so a factor of 1 keeps it at its first size
 * (1 MiB a semi-space). A `--max-semi-space-size` given to node is left as given.
 */
import { setFlagsFromString } from "node:v8";

if (!process.execArgv.some((arg) => arg.startsWith("--max-semi-space-size"))) {
  setFlagsFromString("--semi-space-growth-factor=1");
}
