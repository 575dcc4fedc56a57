import { requireFeature, requireKnownSources } from "../backend/this-resmon.js";
import type { Handler } from "../context.js";
import { runScan } from "../scan.js";

/**
 * A sweep's rows are read through the JSON export with ids (resmon 2.3+): on an older resmon a scan
 * that sweeps is refused as the version gap before anything is written; corpus retrieval runs there.
 * Unknown sources are refused before anything is written too.
 */
export const scan_start: Handler<"scan_start"> = async (args, ctx) => {
  if (args.retrieval !== "corpus") {
    await requireFeature(
      ctx.backend,
      "json_export",
      `JSON reference export with ids, through which retrieval "${args.retrieval ?? "sweep"}" reads each sweep's papers (retrieval "corpus" works here)`,
    );
  }
  await requireKnownSources(ctx.backend, "sources", args.sources);
  return runScan("scan_start", ctx, args.scan_id, (engine, backend, options) =>
    engine.start(args, backend, options),
  );
};
