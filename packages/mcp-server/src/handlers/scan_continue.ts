import type { Handler } from "../context.js";
import { runScan } from "../scan.js";

export const scan_continue: Handler<"scan_continue"> = (args, ctx) =>
  runScan("scan_continue", ctx, args.scan_id, (engine, backend, options) =>
    engine.continue(args, backend, options),
  );
