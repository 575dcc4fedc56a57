import { realpathSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { homedir } from "node:os";
import { basename, dirname, join } from "node:path";
import { readSmallFile, resolveStateDir } from "@resmon/api-client";
import type { ResmonFeature, RouteRef, ScanEnvelope, ToolName, ToolResult } from "@resmon/mcp-contract";
import type { ScanBackend, ScanCallOptions, ScanEngine, ScanServes } from "@resmon/scan";
import { notInThisResmon } from "./backend/this-resmon.js";
import type { Config } from "./config.js";
import type { Ctx } from "./context.js";
import { registerSecret, scrub } from "./scrub.js";
import { answerOf } from "./shape/answer.js";

/**
 * The glue between the scan engine and the tools: one engine per server process; every call asks
 * resmon through the tool call's CallBackend (its deadline, the one error mapping), everything the
 * engine writes to disk goes through the same scrubber as stdout, and its refusals are the
 * contract's ToolError, which the funnel turns into the error envelope.
 */

/**
 * Learn the tokens of this state directory without asking resmon (scan_result runs no discovery):
 * every api-token-<port> file there, read as discovery reads one (small, regular), so the scrubber
 * knows what discovery would have read.
 */
async function learnTokens(env: Record<string, string | undefined>): Promise<void> {
  const stateDir = resolveStateDir(process.platform, env, homedir());
  let names: string[];
  try {
    names = await readdir(stateDir);
  } catch {
    return;
  }
  for (const name of names.filter((n) => /^api-token-\d+$/.test(n)).slice(0, 64)) {
    const read = await readSmallFile(`${stateDir}/${name}`);
    if (read.ok) registerSecret(read.text);
  }
}

/**
 * The configured scans directory with every symlink on its way resolved, once (issue 34): a dotfile
 * set-up that links it elsewhere, or macOS's /tmp (a link to /private/tmp), is where the user put
 * it. The engine still refuses a symlink inside it (a scan's directory or file). A part not there yet
 * is kept as written under the nearest ancestor that is.
 */
export function resolvedScanRoot(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    const parent = dirname(dir);
    return parent === dir ? dir : join(resolvedScanRoot(parent), basename(dir));
  }
}

/**
 * The engine for this server's configuration (config.ts). The scan's modules load here, on the first
 * scan call or resource: a session that never scans does not load them.
 */
export async function scanEngineFor(config: Config): Promise<ScanEngine> {
  const { createScanEngine, defaultScanDataDir } = await import("@resmon/scan");
  const { scanWaitMs, scanRetryWaitMs } = config;
  const engine = createScanEngine({
    dataDir: resolvedScanRoot(config.scanDataDir ?? defaultScanDataDir(config.env)),
    scrub,
    ...(scanWaitMs !== undefined ? { waitMs: scanWaitMs } : {}),
    ...(scanRetryWaitMs !== undefined ? { retryWaitMs: scanRetryWaitMs } : {}),
  });
  return {
    ...engine,
    async result(args) {
      await learnTokens(config.env);
      return engine.result(args);
    },
    async evidence(args) {
      await learnTokens(config.env);
      return engine.evidence(args);
    },
  };
}

/**
 * Of what the scan uses beyond resmon 1.6, what this resmon lacks, each said as the version gap
 * (this-resmon.ts): the engine skips what it cannot ask and says why, sending nothing there.
 */
async function scanServes(backend: Ctx["backend"]): Promise<ScanServes> {
  const resmon = await backend.resmon();
  const feature = (f: ResmonFeature, words: string) =>
    resmon.has(f) ? null : notInThisResmon(resmon, { feature: f, words });
  const route = (r: RouteRef) => (resmon.serves(r) ? null : notInThisResmon(resmon, { route: r }));
  return {
    json_export: feature("json_export", "JSON reference export with ids"),
    similarity_search: feature("similarity_search", "similarity search on the corpus"),
    similar: route({ method: "GET", path: "/api/documents/{document_id}/similar" }),
    lifecycle: route({ method: "GET", path: "/api/documents/{doc_id}/lifecycle" }),
  };
}

/** This tool call's backend as the scan takes it: the same requests, and what this resmon lacks. */
function scanBackendOf(backend: Ctx["backend"]): ScanBackend {
  return { ...backend, served: () => scanServes(backend) };
}

/**
 * Run one engine call on scan `scanId` with this tool call's backend: its envelope checked against
 * the tool's row. The call reads the scan's state whole, ~4 times its size in transient copies (a
 * 31.5 MiB scan.json took the server to 138 MB; 8 scan_result at once to 236–257 MB), so it first
 * takes room for it in the budget of large resmon answers (backend/large-answers.ts): such calls go
 * one at a time, each collected once its answer has left.
 */
export async function runScan<N extends ToolName>(
  name: N,
  ctx: Ctx,
  scanId: string,
  call: (engine: ScanEngine, backend: ScanBackend, options: ScanCallOptions) => Promise<ScanEnvelope>,
): Promise<ToolResult<N>> {
  const { progress } = ctx;
  // The engine's reports, as they are, to the call's progress (src/progress.ts scales and paces them).
  const options: ScanCallOptions = progress ? { onProgress: (p) => progress(p) } : {};
  const engine = await ctx.scan();
  await ctx.backend.room(engine.stateBytes(scanId));
  return answerOf(name, { ...(await call(engine, scanBackendOf(ctx.backend), options)) });
}
