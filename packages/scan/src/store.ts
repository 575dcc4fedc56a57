import { lstatSync } from "node:fs";
import { join, relative } from "node:path";
import { isFullPath } from "./data-dir.js";
import { storageRefusal } from "./errors.js";
import { ensureDir, readBounded, StorageProblem, writeAtomic } from "./fsio.js";
import { jsonWithoutControls, withoutControls } from "./no-controls.js";
import { checkState, type RecordBook, type ScanState } from "./state.js";

/** A scan.json or candidates.json larger than this is refused, never read whole (a real scan's is a few MB). */
export const MAX_STATE_BYTES = 32 * 1024 * 1024;

/**
 * The scans directory as a refusal names it: by the setting that places it, never by its absolute
 * path (issue 41). A refusal reaches the model, and the path would tell it the user's home and name.
 */
const SCANS_DIRECTORY =
  "the scans directory (RESMON_MCP_SCAN_DATA; by default resmon-mcp/scans in the user's data directory)";

/** The fixed names of a scan's files: nothing else is ever read or written in its directory. */
export const FILES = {
  state: "scan.json",
  records: "candidates.json",
  json: "evidence.json",
  md: "evidence.md",
  bib: "evidence.bib",
} as const;
export type ScanFileName = (typeof FILES)[keyof typeof FILES];
/** The text files a person is handed to open (evidence.json is cleaned as JSON). */
const PERSON_FILES: ReadonlySet<ScanFileName> = new Set([FILES.md, FILES.bib]);

const STORAGE_CODES: Record<string, string> = {
  ENOSPC: "the disk is full",
  EDQUOT: "the disk quota is used up",
  EROFS: "the file system is read-only",
  EACCES: "permission was denied",
  EPERM: "the operation is not permitted",
  ENOTDIR: "a part of the path is not a directory",
  EISDIR: "it is a directory",
  EEXIST: "something else is already there",
  EMFILE: "too many files are open",
  EIO: "the disk reported an I/O error",
};

/** One scan's directory: scan.json (written last), candidates.json (records at retrieval), lock, evidence.*. */
export class ScanDir {
  readonly dir: string;
  /** Requests this call has made of resmon so far (call.ts counts them): a storage refusal says so. */
  requestsMade = 0;
  /** Of those, the ones that may have started work in resmon (sweeps); the rest only read. */
  workStarts = 0;
  constructor(
    readonly root: string,
    readonly scanId: string,
    /** Applied to every byte written (the server's scrubber: no token reaches the disk either). */
    private readonly scrub: (text: string) => string = (t) => t,
  ) {
    if (!isFullPath(root)) {
      throw storageRefusal(
        "relative_root",
        root,
        `The scans directory "${root}" is not an absolute path, so scans would land relative to wherever the harness runs; set RESMON_MCP_SCAN_DATA to an absolute path (on Windows one with its drive, C:\\…, or a \\\\server\\share).`,
      );
    }
    this.dir = join(root, scanId);
  }
  get lockPath(): string {
    return join(this.dir, "lock");
  }
  file(name: ScanFileName): string {
    return join(this.dir, name);
  }
  /** A path as said to a person: relative to the scans directory (never the absolute path). */
  shown(path: string): string {
    return relative(this.root, path) || ".";
  }

  /** Run a file-system step; its failure as the named storage refusal, with the path shown relative. */
  guard<T>(path: string, doing: string, step: () => T): T {
    try {
      return step();
    } catch (error) {
      throw this.refusal(error, path, doing);
    }
  }

  /** What a storage refusal says of resmon: whether this call had asked it anything before the failure. */
  private sentSoFar(): string {
    const n = this.requestsMade;
    if (n === 0) return "nothing was sent to resmon";
    const made = `this call had already made ${n} request${n === 1 ? "" : "s"} of resmon`;
    const sweeps = this.workStarts;
    // Only a sweep starts anything there: a call that only read (neighbour lists, the corpus) says so.
    if (sweeps === 0) return `${made}, reads only (nothing was started there), whose answers are not saved`;
    return `${made} (${sweeps === 1 ? "a sweep" : `${sweeps} sweeps`} among them, which may have started a run there) whose answers are not saved`;
  }

  refusal(error: unknown, path: string, doing: string): Error {
    const where = path === this.root ? SCANS_DIRECTORY : `${this.shown(path)} in ${SCANS_DIRECTORY}`;
    if (error instanceof StorageProblem) {
      const at = error.path === path ? where : `${this.shown(error.path)} in ${SCANS_DIRECTORY}`;
      return storageRefusal(
        error.problem,
        this.shown(error.path),
        `Could not ${doing} ${at}: ${error.message}. Nothing was changed and ${this.sentSoFar()}; the file is left as it is for you to inspect.`,
      );
    }
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    const said = code ? STORAGE_CODES[code] : undefined;
    if (code && said) {
      return storageRefusal(
        code,
        this.shown(path),
        `Could not ${doing} ${where}: ${said} (${code}). The previous file is untouched and ${this.sentSoFar()}; free space or fix the directory, then send the same call again.`,
      );
    }
    return error as Error;
  }

  create(): void {
    this.guard(this.root, "create", () => ensureDir(this.root));
    this.guard(this.dir, "create", () => ensureDir(this.dir));
  }
  /** Whether this scan's directory exists (a symlink or a file in its place is refused, not followed). */
  exists(): boolean {
    return this.readState() !== undefined;
  }
  /** Whether the scan's directory is there; a symlink or a file in its place is refused, never followed. */
  private present(): boolean {
    let st: ReturnType<typeof lstatSync>;
    try {
      st = lstatSync(this.dir);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return false;
      throw this.refusal(error, this.dir, "read");
    }
    if (st.isSymbolicLink())
      throw this.refusal(
        new StorageProblem("symlink", this.dir, "it is a symbolic link, which is not followed"),
        this.dir,
        "read",
      );
    if (!st.isDirectory())
      throw this.refusal(
        new StorageProblem("not_a_directory", this.dir, "it is not a directory"),
        this.dir,
        "read",
      );
    return true;
  }
  readState(): ScanState | undefined {
    if (!this.present()) return undefined;
    const path = this.file(FILES.state);
    const text = this.guard(path, "read", () => readBounded(path, MAX_STATE_BYTES));
    if (text === undefined) return undefined;
    const why = (problem: string, said: string) =>
      storageRefusal(
        problem,
        this.shown(path),
        `The scan's file ${this.shown(path)} in ${SCANS_DIRECTORY} cannot be used: ${said}. It is left as it is for you to inspect; move it aside (or use a new scan_id) to start afresh.`,
      );
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      throw why("corrupt", "it is not valid JSON");
    }
    const wrong = checkState(raw);
    if (wrong) throw why("corrupt", wrong);
    const state = raw as ScanState;
    if (state.scan_id !== this.scanId) {
      throw why("wrong_scan_id", "it belongs to another scan id, so it is not served or resumed as this one");
    }
    return state;
  }
  readRecords(): RecordBook {
    const path = this.file(FILES.records);
    const text = this.guard(path, "read", () => readBounded(path, MAX_STATE_BYTES));
    if (text === undefined) return {};
    try {
      const book = JSON.parse(text) as unknown;
      if (book && typeof book === "object" && !Array.isArray(book)) return book as RecordBook;
    } catch {}
    throw storageRefusal(
      "corrupt",
      this.shown(path),
      `The scan's file ${this.shown(path)} in ${SCANS_DIRECTORY} is not the record book it should be; it is left as it is for you to inspect.`,
    );
  }
  /** The size of one of the scan's files, without following a symlink; undefined when it is not there. */
  sizeOf(name: ScanFileName): number | undefined {
    try {
      const st = lstatSync(this.file(name));
      return st.isFile() ? st.size : undefined;
    } catch {
      return undefined;
    }
  }
  readText(name: ScanFileName, maxBytes: number): string | undefined {
    const path = this.file(name);
    return this.guard(path, "read", () => readBounded(path, maxBytes));
  }
  /** Records first, then scan.json: a crash between them leaves records that are a superset, never fewer. */
  save(state: ScanState, records: RecordBook | null): void {
    if (records !== null) this.writeText(FILES.records, `${JSON.stringify(records, null, 1)}\n`);
    this.writeText(FILES.state, `${JSON.stringify(state, null, 1)}\n`);
  }
  /**
   * Write one of the scan's files whole (scrubbed), or refuse with the old one untouched. The files
   * a person is handed (evidence.*) lose every control character but tab and line feed first, so a
   * token split by one is whole again before the scrubber looks.
   */
  writeText<N extends ScanFileName>(name: N, text: string): N {
    const path = this.file(name);
    const clean =
      name === FILES.json ? jsonWithoutControls(text) : PERSON_FILES.has(name) ? withoutControls(text) : text;
    this.guard(path, "write", () => writeAtomic(path, this.scrub(clean)));
    return name;
  }
}
