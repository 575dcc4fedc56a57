import { readFileSync } from "node:fs";
import type { ResmonClient } from "@resmon/api-client";
import {
  acceptGap,
  acceptRanked,
  acceptScreen,
  cleanEntries,
  cleanScores,
  mergeFinalEntries,
} from "./accept.js";
import { checkScanId, differingArguments, inputsHash, normalizeStart, type StartInputs } from "./args.js";
import { badArtifact, wrongPhase } from "./artifacts.js";
import { Call } from "./call.js";
import { envelopeOf } from "./envelope.js";
import { ScanError } from "./errors.js";
import { acquireLock } from "./lock.js";
import { advance, nextActionOf, roundFailedError } from "./machine.js";
import { checkRuntime, planTasks, resubmitUnfinished } from "./retrieval.js";
import type { ScanState } from "./state.js";
import { nextStep as nextStepOf } from "./steps.js";
import { ScanDir } from "./store.js";
import type {
  ScanContinueArgs,
  ScanEnvelope,
  ScanResultArgs,
  ScanStartArgs,
  ScanVerifyArgs,
} from "./types.js";
import { closeFoundNothing, runVerification } from "./verify-run.js";

export interface ScanEngineOptions {
  /** Resolves the discovered client. Errors propagate unchanged (after the lock is released). */
  connect: () => Promise<ResmonClient>;
  /** Scan state root (the server's RESMON_MCP_SCAN_DATA, else defaultScanDataDir). Dirs 0700, files 0600. */
  dataDir: string;
  /** How long one mutating call may work before answering await_retrieval (default DEFAULT_SCAN_WAIT_MS). */
  waitMs?: number;
  /** Poll interval while waiting on sweeps (default 500 ms). */
  pollMs?: number;
  now?: () => Date;
}

export interface ScanEngine {
  start(args: ScanStartArgs): Promise<ScanEnvelope>;
  continue(args: ScanContinueArgs): Promise<ScanEnvelope>;
  verify(args: ScanVerifyArgs): Promise<ScanEnvelope>;
  result(args: ScanResultArgs): Promise<ScanEnvelope>;
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
    phase: "retrieve",
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

function notFound(scanId: string): ScanError {
  return new ScanError("not_found", `There is no scan ${scanId} here; start it with scan_start.`, {
    scan_id: scanId,
  });
}

export function createScanEngine(options: ScanEngineOptions): ScanEngine {
  const root = options.dataDir;
  const waitMs = options.waitMs ?? DEFAULT_SCAN_WAIT_MS;
  const pollMs = options.pollMs ?? 500;
  const now = options.now ?? (() => new Date());

  /** Run `work` under the scan's lock, with a fresh read of its state. */
  async function locked(
    scanId: string,
    tool: string,
    work: (dir: ScanDir, state: ScanState | undefined, open: (s: ScanState) => Call) => Promise<ScanEnvelope>,
    create = false,
  ): Promise<ScanEnvelope> {
    const dir = new ScanDir(root, scanId);
    if (create) dir.create();
    else if (dir.readState() === undefined) throw notFound(scanId);
    // Wall-clock time, not options.now: a lock's age decides whether its holder can still be alive.
    const lock = acquireLock(dir.lockPath, tool, new Date());
    try {
      const open = (s: ScanState) =>
        new Call(dir, s, dir.readRecords(), options.connect, Date.now() + waitMs, pollMs, now, checkRuntime);
      return await work(dir, dir.readState(), open);
    } finally {
      lock.release();
    }
  }

  async function start(args: ScanStartArgs): Promise<ScanEnvelope> {
    const scanId = checkScanId(args?.scan_id);
    const inputs = normalizeStart(args);
    return locked(
      scanId,
      "scan_start",
      async (_dir, existing, open) => {
        if (existing) {
          // The stored hash decides; the names of what differs are only for the message.
          const differs =
            existing.inputs_hash === inputsHash(inputs) ? [] : differingArguments(existing.inputs, inputs);
          if (differs.length) {
            throw new ScanError(
              "conflict",
              `Scan ${scanId} is in use with other inputs (${differs.join(", ")}); use a fresh scan_id for a different brief.`,
              { conflict: "scan_id_conflict", differs },
            );
          }
          const call = open(existing);
          if (existing.round_failed || nextStepOf(existing).kind === "nothing_found") {
            resubmitUnfinished(call.state);
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

  async function continueScan(args: ScanContinueArgs): Promise<ScanEnvelope> {
    const scanId = checkScanId(args?.scan_id);
    const sent = (["screen_scores", "gap_queries", "ranked_entries"] as const).filter(
      (k) => args[k] !== undefined,
    );
    return locked(scanId, "scan_continue", async (_dir, state, open) => {
      if (!state) throw notFound(scanId);
      const call = open(state);
      if (sent.length > 1) {
        throw wrongPhase(`Send exactly one artifact, not ${sent.join(" and ")}.`, nextActionOf(state));
      }
      const kind = sent[0];
      if (kind === "screen_scores") return acceptScreen(call, cleanScores(args.screen_scores ?? []));
      if (kind === "gap_queries") return acceptGap(call, args.gap_queries ?? []);
      if (kind === "ranked_entries") return acceptRanked(call, cleanEntries(args.ranked_entries ?? []));
      if (state.round_failed) throw roundFailedError(state);
      return advance(call);
    });
  }

  async function verify(args: ScanVerifyArgs): Promise<ScanEnvelope> {
    const scanId = checkScanId(args?.scan_id);
    return locked(scanId, "scan_verify", async (_dir, state, open) => {
      if (!state) throw notFound(scanId);
      const call = open(state);
      const entries = args.ranked_entries === undefined ? [] : cleanEntries(args.ranked_entries);
      if (state.phase === "complete") {
        // A finished scan is final: the stored result, and nothing new.
        if (entries.length) {
          const { replayOnly } = mergeFinalEntries(structuredClone(state), entries);
          if (!replayOnly) throw wrongPhase("This scan is complete and takes nothing new.", "complete");
          return envelopeOf(state, call.records, { replayed: true });
        }
        return envelopeOf(state, call.records);
      }
      const step = nextStepOf(state);
      // Nothing found and no source answered: the person may close the scan with evidence that says so.
      if (step.kind === "nothing_found") closeFoundNothing(state);
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

  async function result(args: ScanResultArgs): Promise<ScanEnvelope> {
    const scanId = checkScanId(args?.scan_id);
    const dir = new ScanDir(root, scanId);
    // Read-only and never waits on the lock: scan.json is only ever replaced whole.
    const state = dir.readState();
    if (!state) throw notFound(scanId);
    // Only a batch or a page shows records; the rest of the envelope comes from scan.json alone.
    const kind = nextStepOf(state).kind;
    const envelope = envelopeOf(state, kind === "screen" || kind === "rank" ? dir.readRecords() : {});
    if (args.include_markdown && state.files) {
      envelope.payload.markdown = readFileSync(state.files.md, "utf8");
    }
    return envelope;
  }

  return { start, continue: continueScan, verify, result };
}
