import { type ScanEnvelope, type ToolArgs, ToolError } from "@resmon/mcp-contract";
import {
  acceptGap,
  acceptRanked,
  acceptScreen,
  cleanEntries,
  cleanScores,
  mergeFinalEntries,
} from "./accept.js";
import { checkListLength, differingArguments, inputsHash, normalizeStart, type StartInputs } from "./args.js";
import { badArtifact, wrongPhase } from "./artifacts.js";
import { BudgetSpent, type ScanBackend } from "./backend.js";
import { Call } from "./call.js";
import { envelopeOf } from "./envelope.js";
import {
  type Evidence,
  type EvidenceArgs,
  type EvidenceListing,
  listEvidence,
  readEvidence,
} from "./evidence.js";
import { acquireLock } from "./lock.js";
import { advance, nextActionOf, roundFailedError } from "./machine.js";
import type { OnProgress } from "./progress.js";
import { checkRuntime, planTasks, resubmitUnfinished } from "./retrieval.js";
import type { ScanState } from "./state.js";
import { nextStep as nextStepOf } from "./steps.js";
import { DEFAULT_RETRY_WAIT_MS } from "./stop.js";
import { FILES, MAX_MARKDOWN_BYTES, ScanDir } from "./store.js";
import { closeFoundNothing, runVerification } from "./verify-run.js";

export interface ScanEngineOptions {
  /** Scan state root, an absolute path (the server's RESMON_MCP_SCAN_DATA, else defaultScanDataDir). Dirs 0700, files 0600. */
  dataDir: string;
  /** How long one mutating call may work before answering await_retrieval (default DEFAULT_SCAN_WAIT_MS). */
  waitMs?: number;
  /** Poll interval while waiting on sweeps (default 500 ms). */
  pollMs?: number;
  /** How long a retry of a failed or empty round waits before its retrievals are sent (default DEFAULT_RETRY_WAIT_MS). */
  retryWaitMs?: number;
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
/** What one mutating call's caller may pass beside its arguments and backend. */
export interface ScanCallOptions {
  /** Called as the call's retrieval or verification moves on (progress.ts); never after it answers. */
  onProgress?: OnProgress;
}

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
  /** The evidence files written so far, newest scan first (directory entries only). */
  listEvidence(): Promise<EvidenceListing[]>;
}

/** A mutating call's longest wait when the caller names none (the server's RESMON_MCP_SCAN_WAIT_MS default). */
export const DEFAULT_SCAN_WAIT_MS = 20_000;

/** A scan's state before its first step (exported for the budget test's fixtures). */
export function newState(scanId: string, inputs: StartInputs, now: Date): ScanState {
  const at = now.toISOString();
  return {
    version: 1,
    scan_id: scanId,
    inputs,
    inputs_hash: inputsHash(inputs),
    created_at: at,
    updated_at: at,
    runtime_id: null,
    restarts: [],
    tasks: planTasks(0, inputs.queries.queries, inputs.retrieval),
    retrieving: 0,
    round_failed: false,
    candidates: [],
    batches: [],
    expansion: null,
    gap: null,
    shortlist: null,
    pages: [],
    checks: null,
    verdicts: null,
    files: null,
    summary: null,
  };
}

function notFound(scanId: string): ToolError {
  return new ToolError("not_found", `There is no scan ${scanId} here; start it with scan_start.`, {
    scan_id: scanId,
  });
}

export function createScanEngine(options: ScanEngineOptions): ScanEngine {
  const root = options.dataDir;
  const waitMs = options.waitMs ?? DEFAULT_SCAN_WAIT_MS;
  const pollMs = options.pollMs ?? 500;
  const retryWaitMs = options.retryWaitMs ?? DEFAULT_RETRY_WAIT_MS;
  const now = options.now ?? (() => new Date());
  const scrub = options.scrub ?? ((text: string) => text);

  /** The evidence files as the person reads them: absolute paths, resolved inside the scan's directory. */
  function withFiles(dir: ScanDir, envelope: ScanEnvelope): ScanEnvelope {
    if (envelope.payload.files) {
      envelope.payload.files = {
        json: dir.file(FILES.json),
        md: dir.file(FILES.md),
        bib: dir.file(FILES.bib),
      };
    }
    return envelope;
  }

  /** Run `work` under the scan's lock, with a fresh read of its state. */
  async function locked(
    scanId: string,
    tool: string,
    given: ScanBackend | undefined,
    callOptions: ScanCallOptions | undefined,
    work: (state: ScanState | undefined, open: (s: ScanState) => Call) => Promise<ScanEnvelope>,
    create = false,
  ): Promise<ScanEnvelope> {
    const backend = given ?? options.backend;
    if (!backend)
      throw new Error("A scan call needs a backend: pass one to the call or to createScanEngine.");
    const arrived = Math.min(Date.now(), backend.arrivedAt ?? Date.now());
    const dir = new ScanDir(root, scanId, scrub);
    if (create) dir.create();
    else if (dir.readState() === undefined) throw notFound(scanId);
    // Wall-clock time, not options.now: a lock's age decides whether its holder can still be alive.
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
          deadline: arrived + waitMs,
          pollMs,
          retryWaitMs,
          now,
          onRuntime: checkRuntime,
          onProgress: callOptions?.onProgress,
        });
        return opened;
      };
      return withFiles(dir, await work(dir.readState(), open));
    } catch (error) {
      // The wait budget ran out under a request: what is recorded stands, and the envelope says where.
      if (!(error instanceof BudgetSpent) || !opened) throw error;
      opened.save();
      return withFiles(dir, envelopeOf(opened.state, opened.records));
    } finally {
      lock.release();
    }
  }

  async function start(
    args: ToolArgs<"scan_start">,
    backend?: ScanBackend,
    callOptions?: ScanCallOptions,
  ): Promise<ScanEnvelope> {
    const scanId = args.scan_id;
    const inputs = normalizeStart(args);
    return locked(
      scanId,
      "scan_start",
      backend,
      callOptions,
      async (existing, open) => {
        if (existing) {
          // The stored hash decides; the names of what differs are only for the message.
          const differs =
            existing.inputs_hash === inputsHash(inputs) ? [] : differingArguments(existing.inputs, inputs);
          if (differs.length) {
            throw new ToolError(
              "conflict",
              `Scan ${scanId} is in use with other inputs (${differs.join(", ")}); use a fresh scan_id for a different brief.`,
              { conflict: "scan_id_conflict", differs },
            );
          }
          const call = open(existing);
          // The retry on offer (at most MAX_ROUND_RETRIES a round), sent after the retry wait; a
          // stopped scan answers its options and sends nothing.
          const kind = nextStepOf(existing).kind;
          if (kind === "round_failed" || kind === "nothing_found") {
            resubmitUnfinished(call.state, new Date(Date.now() + retryWaitMs));
            call.save();
          }
          return advance(call);
        }
        const call = open(newState(scanId, inputs, now()));
        // The defaulted inputs and their hash are on disk before any sweep starts.
        call.save();
        return advance(call);
      },
      true,
    );
  }

  async function continueScan(
    args: ToolArgs<"scan_continue">,
    backend?: ScanBackend,
    callOptions?: ScanCallOptions,
  ): Promise<ScanEnvelope> {
    const scanId = args.scan_id;
    const sent = (["screen_scores", "gap_queries", "ranked_entries"] as const).filter(
      (k) => args[k] !== undefined,
    );
    for (const k of sent) checkListLength(args[k], k, k);
    for (const [i, score] of (Array.isArray(args.screen_scores) ? args.screen_scores : []).entries()) {
      checkListLength(score?.criteria_hit, `screen_scores[${i}].criteria_hit`, "criteria_hit");
    }
    return locked(scanId, "scan_continue", backend, callOptions, async (state, open) => {
      if (!state) throw notFound(scanId);
      const call = open(state);
      if (sent.length > 1) {
        throw wrongPhase(`Send exactly one artifact, not ${sent.join(" and ")}.`, nextActionOf(state));
      }
      const kind = sent[0];
      if (kind === "screen_scores") return acceptScreen(call, cleanScores(args.screen_scores ?? []));
      if (kind === "gap_queries") return acceptGap(call, args.gap_queries ?? []);
      if (kind === "ranked_entries") return acceptRanked(call, cleanEntries(args.ranked_entries ?? []));
      if (nextStepOf(state).kind === "round_failed") throw roundFailedError(state);
      return advance(call);
    });
  }

  async function verify(
    args: ToolArgs<"scan_verify">,
    backend?: ScanBackend,
    callOptions?: ScanCallOptions,
  ): Promise<ScanEnvelope> {
    const scanId = args.scan_id;
    checkListLength(args.ranked_entries, "ranked_entries", "ranked_entries");
    return locked(scanId, "scan_verify", backend, callOptions, async (state, open) => {
      if (!state) throw notFound(scanId);
      const call = open(state);
      const entries = args.ranked_entries === undefined ? [] : cleanEntries(args.ranked_entries);
      const step = nextStepOf(state);
      if (step.kind === "complete") {
        // A finished scan is final: the stored result, and nothing new.
        if (entries.length) {
          const { replayOnly } = mergeFinalEntries(structuredClone(state), entries);
          if (!replayOnly) throw wrongPhase("This scan is complete and takes nothing new.", "complete");
          return envelopeOf(state, call.records, { replayed: true });
        }
        return envelopeOf(state, call.records);
      }
      // A first round that failed or found nothing with no source answering (a retry on offer or
      // not): the scan may be closed with evidence that says so.
      const closable =
        step.kind === "nothing_found" ||
        step.kind === "stopped" ||
        (step.kind === "round_failed" && step.round === 0);
      if (closable) closeFoundNothing(state);
      else if (step.kind !== "rank" && step.kind !== "verify") {
        throw wrongPhase("Nothing is ranked yet: follow next_action.", nextActionOf(state));
      }
      if (entries.length) {
        mergeFinalEntries(state, entries);
        call.save();
      }
      const unranked = state.pages.filter((p) => p.accepted_hash === null).flatMap((p) => p.doc_ids);
      if (unranked.length) {
        throw badArtifact(
          "ranking",
          { missing_ids: unranked, unknown_ids: [], duplicate_ids: [], bad_criteria: [] },
          {
            next_action: "rank_shortlist",
          },
        );
      }
      await runVerification(call);
      return envelopeOf(call.state, call.records);
    });
  }

  async function result(args: ToolArgs<"scan_result">): Promise<ScanEnvelope> {
    const scanId = args.scan_id;
    const dir = new ScanDir(root, scanId, scrub);
    // Read-only and never waits on the lock: scan.json is only ever replaced whole.
    const state = dir.readState();
    if (!state) throw notFound(scanId);
    // Only a batch or a page shows records; the rest of the envelope comes from scan.json alone.
    const kind = nextStepOf(state).kind;
    const envelope = envelopeOf(state, kind === "screen" || kind === "rank" ? dir.readRecords() : {});
    if (args.include_markdown && state.files) {
      // Only the scan's own evidence.md, by its fixed name, bounded, never through a symlink.
      const markdown = dir.readText(FILES.md, MAX_MARKDOWN_BYTES);
      if (markdown !== undefined) envelope.payload.markdown = markdown;
    }
    return withFiles(dir, envelope);
  }

  return {
    start,
    continue: continueScan,
    verify,
    result,
    evidence: async (args) => readEvidence(root, args, scrub),
    listEvidence: async () => listEvidence(root),
  };
}
