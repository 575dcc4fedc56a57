import type { Handler } from "../context.js";
import { runScan } from "../scan.js";

export const scan_result: Handler<"scan_result"> = (args, ctx) =>
  runScan("scan_result", ctx, (engine) => engine.result(args));
