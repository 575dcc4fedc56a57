import type { Handler } from "../context.js";
import { runScan } from "../scan.js";

/** The scan's state, read whole, takes its room in the budget first (runScan). */
export const scan_result: Handler<"scan_result"> = (args, ctx) =>
  runScan("scan_result", ctx, args.scan_id, (engine) => engine.result(args));
