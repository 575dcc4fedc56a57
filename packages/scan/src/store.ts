import { join } from "node:path";
import { ensureDir, readJson, writeAtomic, writeJsonAtomic } from "./fsio.js";
import type { RecordBook, ScanState } from "./state.js";

/** One scan's directory: scan.json (written last), candidates.json (records at retrieval), lock, evidence.*. */
export class ScanDir {
  readonly dir: string;
  constructor(
    readonly root: string,
    readonly scanId: string,
  ) {
    this.dir = join(root, scanId);
  }
  get lockPath(): string {
    return join(this.dir, "lock");
  }
  file(name: string): string {
    return join(this.dir, name);
  }
  create(): void {
    ensureDir(this.root);
    ensureDir(this.dir);
  }
  readState(): ScanState | undefined {
    return readJson<ScanState>(this.file("scan.json"));
  }
  readRecords(): RecordBook {
    return readJson<RecordBook>(this.file("candidates.json")) ?? {};
  }
  /** Records first, then scan.json: a crash between them leaves records that are a superset, never fewer. */
  save(state: ScanState, records: RecordBook | null): void {
    if (records !== null) writeJsonAtomic(this.file("candidates.json"), records);
    writeJsonAtomic(this.file("scan.json"), state);
  }
  writeText(name: string, text: string): string {
    const path = this.file(name);
    writeAtomic(path, text);
    return path;
  }
}
