import { readFileSync } from "node:fs";
import type { ResmonClient } from "@resmon/api-client";
import { checkScanId, differingArguments, inputsHash, normalizeStart, type StartInputs } from "./args.js";
import {
  alreadyAccepted,
  artifactHash,
  badArtifact,
  checkRankedPage,
  checkScreenScores,
  wrongPhase,
} from "./artifacts.js";
import { Call } from "./call.js";
import { defaultScanDataDir } from "./data-dir.js";
import { envelopeOf } from "./envelope.js";
import { ScanError } from "./errors.js";
import { acquireLock } from "./lock.js";
import { advance, nextActionOf, roundFailedError } from "./machine.js";
import { checkRuntime, planTasks, resubmitUnfinished } from "./retrieval.js";
import type { Page, ScanState } from "./state.js";
import { nextStep as nextStepOf } from "./steps.js";
import { ScanDir } from "./store.js";
import type {
  GapQuery,
  RankedEntry,
  ScanContinueArgs,
  ScanEnvelope,
  ScanResultArgs,
  ScanStartArgs,
  ScanVerifyArgs,
  ScreenScore,
} from "./types.js";
import { runVerification } from "./verify-run.js";

export interface ScanEngineOptions {
  /** Resolves the discovered client. Errors propagate unchanged (after the lock is released). */
  connect: () => Promise<ResmonClient>;
  /** Scan state root; default defaultScanDataDir(process.env). Dirs 0700, files 0600. */
  dataDir?: string;
  /** How long one mutating call may work before answering await_retrieval (default RESMON_MCP_SCAN_WAIT_MS, else 20000). */
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

function waitFromEnv(): number | undefined {
  const raw = process.env.RESMON_MCP_SCAN_WAIT_MS;
  const n = raw === undefined ? Number.NaN : Number(raw);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

function newState(scanId: string, inputs: StartInputs, now: Date): ScanState {
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
    verify_hash: null,
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

function cleanScores(scores: readonly ScreenScore[]): ScreenScore[] {
  return scores.map((s) => ({
    doc_id: s.doc_id,
    score: s.score,
    criteria_hit: [...new Set(s.criteria_hit ?? [])].sort(),
    ...(s.reason !== undefined ? { reason: s.reason } : {}),
  }));
}

function cleanEntries(entries: readonly RankedEntry[]): RankedEntry[] {
  return entries.map((e) => {
    const out: RankedEntry = { doc_id: e.doc_id, rank: e.rank };
    if (e.role !== undefined) out.role = e.role;
    if (e.why !== undefined) out.why = e.why;
    if (e.cite !== undefined) {
      out.cite = {};
      for (const k of ["doi", "title", "year", "first_author"] as const) {
        if (e.cite[k] !== undefined) (out.cite as Record<string, unknown>)[k] = e.cite[k];
      }
    }
    return out;
  });
}

/** The accepted batch or page every sent id belongs to, if they all belong to one. */
function acceptedHolder<T extends { doc_ids: number[]; accepted_hash: string | null }>(
  holders: readonly T[],
  ids: readonly number[],
): T | undefined {
  if (ids.length === 0) return undefined;
  const h = holders.find((x) => x.accepted_hash !== null && x.doc_ids.includes(ids[0] as number));
  return h && ids.every((id) => h.doc_ids.includes(id)) ? h : undefined;
}

export function createScanEngine(options: ScanEngineOptions): ScanEngine {
  const root = options.dataDir ?? defaultScanDataDir(process.env);
  const waitMs = options.waitMs ?? waitFromEnv() ?? 20_000;
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
          const differs = differingArguments(existing.inputs, inputs);
          if (differs.length) {
            throw new ScanError(
              "conflict",
              `Scan ${scanId} is in use with other inputs (${differs.join(", ")}); use a fresh scan_id for a different brief.`,
              { conflict: "scan_id_conflict", differs },
            );
          }
          const call = open(existing);
          if (existing.round_failed) {
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

  async function acceptScreen(call: Call, scores: ScreenScore[]): Promise<ScanEnvelope> {
    const state = call.state;
    const hash = artifactHash(scores);
    const held = acceptedHolder(
      state.batches,
      scores.map((s) => s.doc_id),
    );
    if (held) {
      if (held.accepted_hash === hash) return envelopeOf(state, call.records, { replayed: true });
      throw alreadyAccepted("screening batch", held.index);
    }
    const step = nextStepOf(state);
    if (step.kind !== "screen") {
      if (state.phase === "complete")
        throw wrongPhase("This scan is complete and takes nothing new.", "complete");
      throw wrongPhase("The scan is not asking for screen_scores now.", nextActionOf(state));
    }
    checkScreenScores(
      step.batch.doc_ids,
      scores,
      state.inputs.queries.criteria.map((c) => c.id),
    );
    step.batch.scores = scores;
    step.batch.accepted_hash = hash;
    call.save();
    return advance(call);
  }

  async function acceptGap(call: Call, queries: GapQuery[]): Promise<ScanEnvelope> {
    const state = call.state;
    const clean = queries.map((q) => ({
      text: q.text,
      criterion: q.criterion,
      ...(q.kind ? { kind: q.kind } : {}),
    }));
    const hash = artifactHash(clean.map((q, i) => ({ doc_id: i, ...q })));
    if (state.gap?.accepted_hash) {
      if (state.gap.accepted_hash === hash) return envelopeOf(state, call.records, { replayed: true });
      throw new ScanError("conflict", "Gap queries were already accepted; they are never changed.", {
        conflict: "already_accepted",
      });
    }
    if (nextStepOf(state).kind !== "gap_queries") {
      if (state.phase === "complete")
        throw wrongPhase("This scan is complete and takes nothing new.", "complete");
      throw wrongPhase("The scan is not asking for gap_queries now.", nextActionOf(state));
    }
    const known = new Set(state.inputs.queries.criteria.map((c) => c.id));
    const bad = [...new Set(clean.filter((q) => !known.has(q.criterion)).map((q) => q.criterion))];
    if (clean.length > 8) {
      throw new ScanError("invalid_argument", "At most 8 gap queries.", {
        field: "gap_queries",
        reason: "bad_artifact",
      });
    }
    if (bad.length || clean.some((q) => typeof q.text !== "string" || q.text.trim() === "")) {
      throw badArtifact("gap query list", {
        missing_ids: [],
        unknown_ids: [],
        duplicate_ids: [],
        bad_criteria: bad,
      });
    }
    const gap = state.gap as NonNullable<ScanState["gap"]>;
    gap.queries = clean;
    gap.accepted_hash = hash;
    if (clean.length > 0) {
      const planned = clean.map((q, i) => ({ id: `G${i + 1}`, text: q.text }));
      state.tasks.push(...planTasks(1, planned, state.inputs.retrieval));
      state.retrieving = 1;
    }
    call.save();
    return advance(call);
  }

  async function acceptRanked(call: Call, entries: RankedEntry[]): Promise<ScanEnvelope> {
    const state = call.state;
    const hash = artifactHash(entries);
    const held = acceptedHolder(
      state.pages,
      entries.map((e) => e.doc_id),
    );
    if (held) {
      if (held.accepted_hash === hash) return envelopeOf(state, call.records, { replayed: true });
      throw alreadyAccepted("shortlist page", held.index);
    }
    const step = nextStepOf(state);
    if (step.kind !== "rank") {
      if (state.phase === "complete")
        throw wrongPhase("This scan is complete and takes nothing new.", "complete");
      throw wrongPhase("The scan is not asking for ranked_entries now.", nextActionOf(state));
    }
    checkRankedPage(step.page.doc_ids, entries);
    acceptPage(step.page, entries, hash);
    call.save();
    return advance(call);
  }

  function acceptPage(page: Page, entries: RankedEntry[], hash: string): void {
    const order = new Map(page.doc_ids.map((id, i) => [id, i]));
    page.entries = [...entries].sort((a, b) => (order.get(a.doc_id) ?? 0) - (order.get(b.doc_id) ?? 0));
    page.accepted_hash = hash;
  }

  /** Entries sent with scan_verify: merged page by page; an accepted page must match exactly. */
  function mergeFinalEntries(state: ScanState, entries: RankedEntry[]): { replayOnly: boolean } {
    const pageOf = new Map<number, Page>();
    for (const p of state.pages) for (const id of p.doc_ids) pageOf.set(id, p);
    const unknown = entries.filter((e) => !pageOf.has(e.doc_id)).map((e) => e.doc_id);
    if (unknown.length) {
      throw badArtifact("ranked entry list", {
        missing_ids: [],
        unknown_ids: unknown,
        duplicate_ids: [],
        bad_criteria: [],
      });
    }
    const byPage = new Map<Page, RankedEntry[]>();
    for (const e of entries) {
      const p = pageOf.get(e.doc_id) as Page;
      byPage.set(p, [...(byPage.get(p) ?? []), e]);
    }
    let replayOnly = true;
    for (const [page, list] of byPage) {
      if (page.accepted_hash !== null) {
        const accepted = new Map((page.entries ?? []).map((e) => [e.doc_id, artifactHash([e])]));
        if (list.some((e) => accepted.get(e.doc_id) !== artifactHash([e])))
          throw alreadyAccepted("shortlist page", page.index);
        continue;
      }
      checkRankedPage(page.doc_ids, list);
      acceptPage(page, list, artifactHash(list));
      replayOnly = false;
    }
    return { replayOnly };
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
      if (step.kind !== "rank" && step.kind !== "verify") {
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
    const envelope = envelopeOf(state, dir.readRecords());
    if (args.include_markdown && state.files) {
      envelope.payload.markdown = readFileSync(state.files.md, "utf8");
    }
    return envelope;
  }

  return { start, continue: continueScan, verify, result };
}
