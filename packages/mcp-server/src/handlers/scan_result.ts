import type { Handler } from "../context.js";
import { runScan } from "../scan.js";

/**
 * A large scan.json is read and parsed whole, ~4 times its size in transient copies (a 31.5 MiB one
 * took the server to 138 MB; 8 such calls at once to 236–257 MB): it first takes room in the budget
 * of large resmon answers (backend/large-answers.ts), so such reads go one at a time, each collected
 * once its answer has left.
 */
export const scan_result: Handler<"scan_result"> = (args, ctx) =>
  runScan("scan_result", ctx, async (engine) => {
    await ctx.backend.room(engine.stateBytes(args.scan_id));
    return engine.result(args);
  });
