import type { Handler } from "../context.js";
import { runScan } from "../scan.js";

export const scan_start: Handler<"scan_start"> = (args, ctx) =>
  runScan("scan_start", ctx, (engine, backend) => engine.start(args, backend));
