import type { ScanEnvelope, ToolArgs } from "@resmon/mcp-contract";
import type { ScanBackend } from "./backend.js";
import { FIRST_REQUEST_MS, MIN_WORK_MS } from "./call.js";
import {
  type Evidence,
  type EvidenceArgs,
  type EvidenceFile,
  type EvidencePage,
  evidencePageStateBytes,
  listEvidence,
  readEvidence,
} from "./evidence.js";
import type { EngineContext, ScanCallOptions } from "./scan-call.js";
import { continueScan } from "./scan-continue.js";
import { scanResult } from "./scan-result.js";
import { startScan } from "./scan-start.js";
import { verifyScan } from "./scan-verify.js";
import { DEFAULT_RETRY_WAIT_MS } from "./stop.js";
import { FILES, ScanDir } from "./store.js";

export type { ScanCallOptions } from "./scan-call.js";

export interface ScanEngineOptions {
  /** Scan state root, an absolute path (the server's RESMON_MCP_SCAN_DATA, else defaultScanDataDir). Dirs 0700, files 0600. */
  dataDir: string;
  /** How long one mutating call may work before answering await_retrieval (default DEFAULT_SCAN_WAIT_MS). */
  waitMs?: number;
  /** Poll interval while waiting on sweeps (default 500 ms). */
  pollMs?: number;
  /** How long a retry of a failed or empty round waits before its retrievals are sent (default DEFAULT_RETRY_WAIT_MS). */
  retryWaitMs?: number;
  /** A call's requests may run this long from its arrival, whatever its wait budget (default MIN_WORK_MS). */
  minWorkMs?: number;
  /** Until one request has answered, each gets at least this long (default FIRST_REQUEST_MS). */
  firstRequestMs?: number;
  now?: () => Date;
  /** resmon for every call that names none (one process, one backend: tests, scripts); the server passes its per-call one. */
  backend?: ScanBackend;
  /** Applied to everything written to disk, as the server's stdout is scrubbed (no token in any file). */
  scrub?: (text: string) => string;
}

/**
 * The four scan calls, each given its tool's arguments as the contract's row parsed them. A mutating
 * call asks resmon through `backend`, the server's adapter for this tool call (its deadline, its
 * error mapping); scan_result never asks resmon.
 */
export interface ScanEngine {
  start(
    args: ToolArgs<"scan_start">,
    backend?: ScanBackend,
    options?: ScanCallOptions,
  ): Promise<ScanEnvelope>;
  continue(
    args: ToolArgs<"scan_continue">,
    backend?: ScanBackend,
    options?: ScanCallOptions,
  ): Promise<ScanEnvelope>;
  verify(
    args: ToolArgs<"scan_verify">,
    backend?: ScanBackend,
    options?: ScanCallOptions,
  ): Promise<ScanEnvelope>;
  result(args: ToolArgs<"scan_result">): Promise<ScanEnvelope>;
  /** One evidence file of a finished scan, confined, bounded and scrubbed (evidence.ts); never asks resmon. */
  evidence(args: EvidenceArgs): Promise<Evidence>;
  /** One page of the evidence files a read serves, newest scan first, from `from` (a page's `next`; 0 first). */
  listEvidence(from?: number): Promise<EvidencePage>;
  /** The most bytes of one scan.json that page reads whole (they are read one at a time). */
  listEvidenceStateBytes(from?: number): number;
  /** The bytes scan_result may read and parse whole for this scan: its scan.json and candidates.json. */
  stateBytes(scanId: string): number;
  /** The bytes an evidence read reads whole: the scan's scan.json (to check the scan) and the file. */
  evidenceBytes(scanId: string, file: EvidenceFile): number;
}

/** A mutating call's longest wait when the caller names none (the server's RESMON_MCP_SCAN_WAIT_MS default). */
export const DEFAULT_SCAN_WAIT_MS = 20_000;

/**
 * The four scan calls (scan-start.ts, scan-continue.ts, scan-verify.ts, scan-result.ts) on one
 * context; a mutating call runs under the scan's lock with its own Call (scan-call.ts).
 */
export function createScanEngine(options: ScanEngineOptions): ScanEngine {
  const ctx: EngineContext = {
    root: options.dataDir,
    waitMs: options.waitMs ?? DEFAULT_SCAN_WAIT_MS,
    pollMs: options.pollMs ?? 500,
    retryWaitMs: options.retryWaitMs ?? DEFAULT_RETRY_WAIT_MS,
    minWorkMs: options.minWorkMs ?? MIN_WORK_MS,
    firstRequestMs: options.firstRequestMs ?? FIRST_REQUEST_MS,
    now: options.now ?? (() => new Date()),
    scrub: options.scrub ?? ((text: string) => text),
    ...(options.backend ? { backend: options.backend } : {}),
  };
  return {
    start: (args, backend, callOptions) => startScan(ctx, args, backend, callOptions),
    continue: (args, backend, callOptions) => continueScan(ctx, args, backend, callOptions),
    verify: (args, backend, callOptions) => verifyScan(ctx, args, backend, callOptions),
    result: (args) => scanResult(ctx, args),
    evidence: async (args) => readEvidence(ctx.root, args, ctx.scrub),
    listEvidence: async (from) => listEvidence(ctx.root, from),
    listEvidenceStateBytes: (from) => evidencePageStateBytes(ctx.root, from),
    stateBytes: (scanId) => {
      const dir = new ScanDir(ctx.root, scanId);
      return (dir.sizeOf(FILES.state) ?? 0) + (dir.sizeOf(FILES.records) ?? 0);
    },
    evidenceBytes: (scanId, file) => {
      const dir = new ScanDir(ctx.root, scanId);
      return (dir.sizeOf(FILES.state) ?? 0) + (dir.sizeOf(file) ?? 0);
    },
  };
}
