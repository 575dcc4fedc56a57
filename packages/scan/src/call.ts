import type { ApiResult, ResmonClient } from "@resmon/api-client";
import { ToolError } from "@resmon/mcp-contract";
import { BudgetSpent, type ScanBackend, type ScanServes, SERVES_ALL } from "./backend.js";
import { atStage } from "./errors.js";
import { type OnProgress, type ProgressStage, progressOf } from "./progress.js";
import { fillAbsent, type PaperRecord } from "./records.js";
import type { RecordBook, ScanState } from "./state.js";
import type { ScanDir } from "./store.js";

/**
 * Until one request of a call has answered, each request gets at least this long (still within the
 * tool call's own deadline, which the server's adapter keeps): a call with a small or spent wait
 * budget still advances by one step instead of cutting every request short.
 */
export const FIRST_REQUEST_MS = 5_000;
/**
 * However small the wait budget (0 is allowed: polls do the waiting), a call's requests may run this
 * long from its arrival, so one call still makes a pass over its round's sweeps.
 */
export const MIN_WORK_MS = 2_000;

export interface CallOptions {
  dir: ScanDir;
  state: ScanState;
  records: RecordBook;
  /** resmon through the server's adapter, under this tool call's deadline. */
  backend: ScanBackend;
  /** When the tool call arrived (ms since the epoch). */
  arrivedAt: number;
  /** When this call stops waiting and answers (ms since the epoch): arrival + the scan's wait budget. */
  deadline: number;
  pollMs: number;
  /** How long a retry of a failed or empty round waits before its retrievals are sent again. */
  retryWaitMs: number;
  /** MIN_WORK_MS unless given. */
  minWorkMs?: number;
  /** FIRST_REQUEST_MS unless given. */
  firstRequestMs?: number;
  now: () => Date;
  /** Checks the backend's runtime id against the stored one before the call's first request. */
  onRuntime: (call: Call) => Promise<void>;
  /** The caller's progress callback (progress.ts), if it wants one. */
  onProgress?: OnProgress | undefined;
}

/** One mutating call on one scan, under its lock: the state, the records, resmon, the deadline. */
export class Call {
  readonly dir: ScanDir;
  state: ScanState;
  records: RecordBook;
  readonly deadline: number;
  /** No request runs past this (unless it is the call's first: FIRST_REQUEST_MS). */
  private readonly workEnd: number;
  private readonly firstRequestMs: number;
  readonly pollMs: number;
  readonly retryWaitMs: number;
  readonly now: () => Date;
  private readonly backend: ScanBackend;
  private readonly onRuntime: (call: Call) => Promise<void>;
  private runtimeChecked = false;
  private answered = false;
  private recordsDirty = false;
  private serving: Promise<ScanServes> | undefined;
  private readonly onProgress: OnProgress | undefined;
  private stage: ProgressStage | undefined;
  private reported = "";

  constructor(options: CallOptions) {
    this.dir = options.dir;
    this.state = options.state;
    this.records = options.records;
    this.backend = options.backend;
    this.deadline = options.deadline;
    this.workEnd = Math.max(options.deadline, options.arrivedAt + (options.minWorkMs ?? MIN_WORK_MS));
    this.firstRequestMs = options.firstRequestMs ?? FIRST_REQUEST_MS;
    this.pollMs = options.pollMs;
    this.retryWaitMs = options.retryWaitMs;
    this.now = options.now;
    this.onRuntime = options.onRuntime;
    this.onProgress = options.onProgress;
  }

  /**
   * One request to resmon for `stage`, after the runtime check. Its failure is the server's mapped
   * refusal (its ToolError with the stage added); the wait budget running out under it is BudgetSpent.
   */
  async request<T>(
    send: (client: ResmonClient) => Promise<ApiResult<T>>,
    stage: string,
    /** A request that may start work in resmon (a sweep's run): a storage refusal says so. */
    startsWork = false,
  ): Promise<T> {
    if (!this.runtimeChecked) {
      this.runtimeChecked = true;
      await this.onRuntime(this);
    }
    if (startsWork) this.dir.workStarts++;
    return this.send(send, stage, true);
  }

  /** The runtime check's own request: no check before it, and it does not count as the call's step. */
  runtimeRequest<T>(send: (client: ResmonClient) => Promise<ApiResult<T>>): Promise<T> {
    return this.send(send, "retrieve", false);
  }

  private async send<T>(
    send: (client: ResmonClient) => Promise<ApiResult<T>>,
    stage: string,
    advancing: boolean,
  ): Promise<T> {
    const deadline = this.answered ? this.workEnd : Math.max(this.workEnd, Date.now() + this.firstRequestMs);
    if (Date.now() >= deadline) throw new BudgetSpent(false);
    this.dir.requestsMade++;
    try {
      const data = await this.backend.call(send, { deadline });
      if (advancing) this.answered = true;
      return data;
    } catch (error) {
      if (!(error instanceof ToolError)) throw error;
      // Cut by this call's budget, not by resmon: the next call goes on from here.
      if (error.code === "backend_unavailable" && Date.now() >= deadline) throw new BudgetSpent();
      if (advancing) this.answered = true;
      throw atStage(error, stage);
    }
  }

  /**
   * What this resmon lacks of what the scan uses (asked once per call; the server knows it per
   * runtime id), so a step it cannot take is said and skipped before any request is sent.
   */
  async serves(stage: string): Promise<ScanServes> {
    if (!this.backend.served) return SERVES_ALL;
    try {
      this.serving ??= this.backend.served();
      return await this.serving;
    } catch (error) {
      this.serving = undefined;
      if (!(error instanceof ToolError)) throw error;
      throw atStage(error, stage);
    }
  }

  /** Force a fresh runtime check (after a 409 instance_mismatch or a run interrupted by a restart). */
  async recheckRuntime(): Promise<void> {
    await this.onRuntime(this);
  }

  /** Keep the first record seen for a paper: verification compares against the record at retrieval. */
  remember(records: readonly PaperRecord[]): void {
    for (const r of records) {
      const known = this.records[r.id];
      const next = known === undefined ? r : fillAbsent(known, r);
      if (next !== known) {
        this.records[r.id] = next;
        this.recordsDirty = true;
      }
    }
  }

  save(): void {
    this.state.updated_at = this.now().toISOString();
    this.dir.save(this.state, this.recordsDirty ? this.records : null);
    this.recordsDirty = false;
    this.report();
  }

  /** The stage this call is working in: from then on every save (and report()) says how far it is. */
  working(stage: ProgressStage): void {
    this.stage = stage;
    this.report();
  }

  /** Tell the caller how far the stage has come, when that changed since the last report. */
  report(): void {
    if (!this.onProgress || !this.stage) return;
    const now = progressOf(this.state, this.stage);
    const key = `${now.stage} ${now.done}/${now.total} ${now.message}`;
    if (key === this.reported) return;
    this.reported = key;
    try {
      this.onProgress(now);
    } catch {
      // A listener's failure is its own: the scan goes on.
    }
  }

  remainingMs(): number {
    return this.deadline - Date.now();
  }
}
