import { randomBytes } from "node:crypto";
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { dirname } from "node:path";

export function ensureDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
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

/** Create `path` exclusively (0600) holding `text`; EEXIST when it is already there. */
export function writeNew(path: string, text: string): void {
  const fd = openSync(path, "wx", 0o600);
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
}

/** Write to a temp name in the same directory, fsync, rename over the target, fsync the directory. */
export function writeAtomic(path: string, text: string): void {
  const tmp = tempPathFor(path);
  const fd = openSync(tmp, "wx", 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    try {
      unlinkSync(tmp);
    } catch {}
    throw error;
  }
  closeSync(fd);
  renameSync(tmp, path);
  syncDir(dirname(path));
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

/** The parsed file, or undefined when it does not exist. */
export function readJson<T>(path: string): T | undefined {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  return JSON.parse(text) as T;
}
