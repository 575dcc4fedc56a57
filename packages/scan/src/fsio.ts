import { randomBytes } from "node:crypto";
import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { dirname } from "node:path";

/** A file-system problem the scan names to the person (ScanDir turns it into a storage refusal). */
export class StorageProblem extends Error {
  constructor(
    /** An errno code (ENOSPC, EACCES, …) or one of the named shapes: not_a_directory, not_a_file, symlink, too_large, short_write. */
    readonly problem: string,
    readonly path: string,
    message: string,
  ) {
    super(message);
    this.name = "StorageProblem";
  }
}

function codeOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** Make `dir` (0700) and check that what is there is a directory, not a file or a symlink. */
export function ensureDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    // Something that is not a directory is in its place: said below as what it is.
    if (codeOf(error) !== "EEXIST") {
      // A recursive mkdir says ENOENT for a read-only parent: a plain one says what it is (EROFS, EACCES).
      if (codeOf(error) === "ENOENT") mkdirSync(dir, { mode: 0o700 });
      throw error;
    }
  }
  const st = lstatSync(dir);
  if (st.isSymbolicLink()) throw new StorageProblem("symlink", dir, "it is a symbolic link");
  if (!st.isDirectory()) throw new StorageProblem("not_a_directory", dir, "it is not a directory");
}

/** `<file>.<pid>.<hex>.tmp`: a temp file beside `path`, named for the process writing it. */
export function tempPathFor(path: string): string {
  return `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
}

const TEMP_NAME = /^.+\.(\d+)\.[0-9a-f]+\.tmp$/;

/** The pid that writes the temp file named `entry` (tempPathFor), or undefined for any other name. */
export function tempWriter(entry: string): number | undefined {
  const m = TEMP_NAME.exec(entry);
  return m ? Number(m[1]) : undefined;
}

/**
 * Write every byte of `data` at fd: writeSync may write fewer than asked (a nearly full disk wrote
 * 8,192 of 29,745 bytes without an error), so the rest is sent again; a write that makes no
 * progress at all is a full disk.
 */
export function writeAll(fd: number, data: Uint8Array, path: string): void {
  let off = 0;
  while (off < data.length) {
    const n = writeSync(fd, data, off, data.length - off);
    if (n <= 0)
      throw new StorageProblem("short_write", path, `only ${off} of ${data.length} bytes could be written`);
    off += n;
  }
}

/** Create `path` exclusively (0600) holding `text`, whole; EEXIST when it is already there. */
export function writeNew(path: string, text: string): void {
  const fd = openSync(path, "wx", 0o600);
  try {
    writeAll(fd, Buffer.from(text, "utf8"), path);
  } catch (error) {
    closeSync(fd);
    try {
      unlinkSync(path);
    } catch {}
    throw error;
  }
  closeSync(fd);
}

/**
 * Write to a temp name in the same directory, every byte, fsync, rename over the target, fsync the
 * directory: the target is the old file or the whole new one, never a part. On any failure the temp
 * file goes and the target is untouched.
 */
export function writeAtomic(path: string, text: string): void {
  const tmp = tempPathFor(path);
  const fd = openSync(tmp, "wx", 0o600);
  try {
    writeAll(fd, Buffer.from(text, "utf8"), path);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    try {
      unlinkSync(tmp);
    } catch {}
    throw error;
  }
  closeSync(fd);
  try {
    replaceFile(tmp, path);
  } catch (error) {
    try {
      unlinkSync(tmp);
    } catch {}
    throw error;
  }
  syncDir(dirname(path));
}

/**
 * Windows will not replace a file that another process holds open without sharing its deletion (an
 * editor or previewer showing evidence.md, a virus scanner, the search indexer reading it just
 * after it was written): the rename fails with EPERM, EACCES or EBUSY. Such a hold usually ends
 * within moments, so the rename is tried again after each of these waits (1.27 s in all, synchronous
 * like the rest of a write); then it is refused saying what holds it. Elsewhere a rename replaces an
 * open file, and these codes mean what they say.
 */
export const REPLACE_RETRY_MS: readonly number[] = [10, 20, 40, 80, 160, 320, 640];
const HELD_OPEN = new Set(["EPERM", "EACCES", "EBUSY"]);

export interface ReplaceDeps {
  platform?: NodeJS.Platform;
  rename?: (from: string, to: string) => void;
  sleep?: (ms: number) => void;
}

/** Rename `from` over `to`; on Windows, a target held open is waited for, boundedly, then refused by name. */
export function replaceFile(from: string, to: string, deps: ReplaceDeps = {}): void {
  const rename = deps.rename ?? renameSync;
  const sleep = deps.sleep ?? sleepSync;
  if ((deps.platform ?? process.platform) !== "win32") {
    rename(from, to);
    return;
  }
  let last: unknown;
  for (const wait of [0, ...REPLACE_RETRY_MS]) {
    if (wait > 0) sleep(wait);
    try {
      rename(from, to);
      return;
    } catch (error) {
      if (!HELD_OPEN.has(codeOf(error) ?? "")) throw error;
      last = error;
    }
  }
  const total = REPLACE_RETRY_MS.reduce((a, b) => a + b, 0);
  throw new StorageProblem(
    "held_open",
    to,
    `Windows would not let it be replaced for ${(total / 1000).toFixed(2)} s (${codeOf(last)}): another program has it open (an editor or previewer showing it, a virus scanner, the search indexer); close it, then send the same call again`,
  );
}

const pause = new Int32Array(new SharedArrayBuffer(4));
/** A synchronous wait (a write is synchronous: the event loop has nothing to lose meanwhile). */
export function sleepSync(ms: number): void {
  Atomics.wait(pause, 0, 0, ms);
}

function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch {
    // Some platforms (Windows) cannot fsync a directory; the rename is still atomic there.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

export function writeJsonAtomic(path: string, value: unknown): void {
  writeAtomic(path, `${JSON.stringify(value, null, 1)}\n`);
}

// O_NOFOLLOW is 0 where the platform has none (Windows); the lstat below still refuses a link there.
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * The text of the regular file at `path`, read without following a symlink and only up to `maxBytes`
 * (a larger file, a FIFO or a device is refused, never read), or undefined when there is none.
 */
export function readBounded(path: string, maxBytes: number): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, READ_FLAGS);
  } catch (error) {
    const code = codeOf(error);
    if (code === "ENOENT") return undefined;
    if (code === "ELOOP")
      throw new StorageProblem("symlink", path, "it is a symbolic link, which is not followed");
    throw error;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new StorageProblem("not_a_file", path, "it is not a regular file");
    if (lstatSync(path).isSymbolicLink())
      throw new StorageProblem("symlink", path, "it is a symbolic link, which is not followed");
    if (st.size > maxBytes)
      throw new StorageProblem(
        "too_large",
        path,
        `it holds ${st.size} bytes, more than the ${maxBytes} allowed`,
      );
    // Sized by fstat, one byte over to see growth; a file that grows while read is read only to the cap.
    let buf = Buffer.allocUnsafe(st.size + 1);
    let got = 0;
    for (;;) {
      if (got === buf.length) {
        if (buf.length > maxBytes)
          throw new StorageProblem("too_large", path, `it holds more than the ${maxBytes} bytes allowed`);
        const bigger = Buffer.allocUnsafe(Math.min(buf.length * 2, maxBytes + 1));
        buf.copy(bigger, 0, 0, got);
        buf = bigger;
      }
      const n = readSync(fd, buf, got, buf.length - got, null);
      if (n <= 0) break;
      got += n;
    }
    if (got > maxBytes)
      throw new StorageProblem("too_large", path, `it holds more than the ${maxBytes} bytes allowed`);
    return buf.subarray(0, got).toString("utf8");
  } finally {
    closeSync(fd);
  }
}
