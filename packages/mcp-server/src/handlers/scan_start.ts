import { requireKnownSources } from "../backend/this-resmon.js";
import type { Handler } from "../context.js";
import { runScan } from "../scan.js";

/** Which resmon it needs was settled before this (server.ts); unknown sources are refused before anything is written. */
export const scan_start: Handler<"scan_start"> = async (args, ctx) => {
  await requireKnownSources(ctx.backend, "sources", args.sources);
  return runScan("scan_start", ctx, (engine, backend) => engine.start(args, backend));
};
