import type { Handler } from "../context.js";
import { runScan } from "../scan.js";

export const scan_verify: Handler<"scan_verify"> = (args, ctx) =>
  runScan("scan_verify", ctx, args.scan_id, (engine, backend, options) =>
    engine.verify(args, backend, options),
  );
