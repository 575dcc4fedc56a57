import type { ToolName, ToolResult } from "@resmon/mcp-contract";
import {
  createScanEngine,
  defaultScanDataDir,
  type ScanEngine,
  type ScanEnvelope,
  ScanError,
} from "@resmon/scan";
import type { Backend } from "./backend/adapter.js";
import type { Config } from "./config.js";
import type { Ctx } from "./context.js";
import { ToolError } from "./errors.js";
import { answerOf } from "./shape/answer.js";

/**
 * The glue between the scan engine and the tools: one engine per server process, connecting through
 * the server's own discovery, and every ScanError turned into the contract's error through the funnel.
 */

/** The engine for this server's configuration (config.ts), connecting through the server's discovery. */
export function scanEngineFor(backend: Backend, config: Config): ScanEngine {
  const { scanWaitMs } = config;
  return createScanEngine({
    connect: () => backend.client(),
    dataDir: config.scanDataDir ?? defaultScanDataDir(config.env),
    ...(scanWaitMs !== undefined ? { waitMs: scanWaitMs } : {}),
  });
}

/**
 * Run one engine call: its envelope checked against the tool's row, a refusal made a ToolError,
 * anything else passed to the funnel as it is.
 */
export async function runScan<N extends ToolName>(
  name: N,
  ctx: Ctx,
  call: (engine: ScanEngine) => Promise<ScanEnvelope>,
): Promise<ToolResult<N>> {
  try {
    return answerOf(name, { ...(await call(ctx.scan())) });
  } catch (err) {
    if (!(err instanceof ScanError)) throw err;
    // The engine met a backend that went away or restarted: look for it afresh on the next call.
    if (err.code === "backend_unavailable") await ctx.backend.forget();
    throw new ToolError(err.code, err.message, err.detail);
  }
}
