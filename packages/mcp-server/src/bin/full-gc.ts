/**
 * A full garbage collection on demand, for the bin only (cli.ts hands it to
 * backend/large-answers.ts). Pays in peak memory while large answers are read: once a large resmon answer's frame has left, its dead copies (~80 MB
 * for a 6 MiB page) are collected before the next large answer is read, which V8 on its own would
 * not do until the heap had grown by several such pages (issue 34 point 2). Without
 * --expose-gc on node's command line: the flag is set for a moment, long enough for a new context
 * to hand out its `gc` (the way jest's leak detector does), made on first need, not at start-up.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

let gc: (() => void) | undefined;

export function fullGc(): void {
  if (!gc) {
    setFlagsFromString("--expose-gc");
    gc = runInNewContext("gc") as () => void;
    setFlagsFromString("--no-expose-gc");
  }
  gc();
}
