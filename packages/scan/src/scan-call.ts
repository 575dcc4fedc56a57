import { type ScanEnvelope, ToolError } from "@resmon/mcp-contract";
import { BudgetSpent, type ScanBackend } from "./backend.js";
import { Call } from "./call.js";
import { envelopeOf } from "./envelope.js";
import { acquireLock } from "./lock.js";
import type { OnProgress } from "./progress.js";
import { checkRuntime } from "./retrieval.js";
import type { ScanState } from "./state.js";
import { FILES, ScanDir } from "./store.js";

/** What every scan call shares, fixed when the engine is made (createScanEngine fills the defaults). */
export interface EngineContext {
  /** Scan state root, an absolute path. */
  root: string;
  /** How long one mutating call may work before answering await_retrieval. */
  waitMs: number;
  pollMs: number;
  retryWaitMs: number;
  /** Call's floors: MIN_WORK_MS and FIRST_REQUEST_MS unless a test puts them on its time scale. */
  minWorkMs: number;
  firstRequestMs: number;
  now: () => Date;
  scrub: (text: string) => string;
  /** resmon for a call that names none (tests, scripts). */
  backend?: ScanBackend;
}

/** What one mutating call's caller may pass beside its arguments and backend. */
export interface ScanCallOptions {
  /** Called as the call's retrieval or verification moves on (progress.ts); never after it answers. */
  onProgress?: OnProgress;
}

/** Opens the call on a state: the Call that asks resmon and saves, under this call's wait budget. */
export type OpenCall = (state: ScanState) => Call;

export function notFound(scanId: string): ToolError {
  return new ToolError("not_found", `There is no scan ${scanId} here; start it with scan_start.`, {
    scan_id: scanId,
  });
}

/** The evidence files as the person reads them: absolute paths, resolved inside the scan's directory. */
export function withFiles(dir: ScanDir, envelope: ScanEnvelope): ScanEnvelope {
  if (envelope.payload.files) {
    envelope.payload.files = {
      json: dir.file(FILES.json),
      md: dir.file(FILES.md),
      bib: dir.file(FILES.bib),
    };
  }
  return envelope;
}

/**
 * A shortlist page answered to a mutating call is one the model has been shown in full: only such a
 * page's papers may be ranked (scan_verify refuses ranks for the others). scan_result, read-only,
 * shows nothing in this sense.
 */
function markShown(call: Call, envelope: ScanEnvelope): void {
  if (envelope.next_action !== "rank_shortlist" || envelope.scan_id !== call.state.scan_id) return;
  const index = (envelope.payload.page as { index?: unknown } | undefined)?.index;
  const page = call.state.pages.find((p) => p.index === index);
  if (!page || page.shown) return;
  page.shown = true;
  call.save();
}

/**
 * Run one mutating call's `work` under the scan's lock, with a fresh read of its state: `open`
 * gives it the Call (its backend, its wait budget from when the tool call arrived). A budget spent
 * under a request answers what is recorded so far instead of failing.
 */
export async function locked(
  ctx: EngineContext,
  scanId: string,
  tool: string,
  given: ScanBackend | undefined,
  callOptions: ScanCallOptions | undefined,
  work: (state: ScanState | undefined, open: OpenCall) => Promise<ScanEnvelope>,
  create = false,
): Promise<ScanEnvelope> {
  const backend = given ?? ctx.backend;
  if (!backend) throw new Error("A scan call needs a backend: pass one to the call or to createScanEngine.");
  const arrived = Math.min(Date.now(), backend.arrivedAt ?? Date.now());
  const dir = new ScanDir(ctx.root, scanId, ctx.scrub);
  if (create) dir.create();
  else if (dir.readState() === undefined) throw notFound(scanId);
  // Wall-clock time, not ctx.now: a lock's age decides whether its holder can still be alive.
  const lock = dir.guard(dir.lockPath, "take the lock", () => acquireLock(dir.lockPath, tool, new Date()));
  let opened: Call | undefined;
  try {
    const open = (state: ScanState) => {
      opened = new Call({
        dir,
        state,
        records: dir.readRecords(),
        backend,
        arrivedAt: arrived,
        deadline: arrived + ctx.waitMs,
        pollMs: ctx.pollMs,
        retryWaitMs: ctx.retryWaitMs,
        minWorkMs: ctx.minWorkMs,
        firstRequestMs: ctx.firstRequestMs,
        now: ctx.now,
        onRuntime: checkRuntime,
        onProgress: callOptions?.onProgress,
      });
      return opened;
    };
    const envelope = await work(dir.readState(), open);
    if (opened) markShown(opened, envelope);
    return withFiles(dir, envelope);
  } catch (error) {
    // The wait budget ran out under a request: what is recorded stands, and the envelope says where.
    if (!(error instanceof BudgetSpent) || !opened) throw error;
    opened.save();
    const envelope = envelopeOf(opened.state, opened.records);
    markShown(opened, envelope);
    return withFiles(dir, envelope);
  } finally {
    lock.release();
  }
}
