import type { ResmonClient } from "@resmon/api-client";
import { fillAbsent, type PaperRecord } from "./records.js";
import type { RecordBook, ScanState } from "./state.js";
import type { ScanDir } from "./store.js";

/** One mutating call on one scan, under its lock: the state, the records, the client, the deadline. */
export class Call {
  private client: ResmonClient | null = null;
  private runtimeChecked = false;
  private recordsDirty = false;
  constructor(
    readonly dir: ScanDir,
    public state: ScanState,
    public records: RecordBook,
    private readonly connect: () => Promise<ResmonClient>,
    readonly deadline: number,
    readonly pollMs: number,
    readonly now: () => Date,
    private readonly onRuntime: (call: Call, client: ResmonClient) => Promise<void>,
  ) {}

  async resmon(): Promise<ResmonClient> {
    this.client ??= await this.connect();
    if (!this.runtimeChecked) {
      this.runtimeChecked = true;
      await this.onRuntime(this, this.client);
    }
    return this.client;
  }

  /** Force a fresh runtime check (after a 409 instance_mismatch or a run interrupted by a restart). */
  async recheckRuntime(): Promise<void> {
    if (!this.client) return;
    await this.onRuntime(this, this.client);
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
  }

  remainingMs(): number {
    return this.deadline - Date.now();
  }
}
