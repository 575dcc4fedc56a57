import { randomBytes } from "node:crypto";
import { linkSync, lstatSync, readdirSync, statSync, unlinkSync } from "node:fs";
import { hostname } from "node:os";
import { dirname, join } from "node:path";
import { ToolError } from "@resmon/mcp-contract";
import { readBounded, StorageProblem, sleepSync, tempPathFor, tempWriter, writeNew } from "./fsio.js";

interface LockBody {
  pid: number;
  tool: string;
  acquired_at: string;
  host: string;
  nonce: string;
}

/** A lock file that was being written when its holder died: unreadable for this long counts as stale. */
const UNREADABLE_GRACE_MS = 10_000;
/**
 * No call holds a scan this long (each works at most its wait budget, plus bounded requests), so an
 * older lock whose pid looks alive belongs to a reused pid, not to its holder.
 */
const MAX_HOLD_MS = 30 * 60_000;

/**
 * Whether process `pid` is running: signal 0 sends nothing and only asks. On Windows, where there
 * are no signals, libuv answers it the same way (OpenProcess and GetExitCodeProcess: ESRCH for a
 * process that has exited or never was, EPERM for one this user may not open), so one test of the
 * codes holds both.
 */
export function alive(pid: number, kill: (pid: number, signal: 0) => void = process.kill): boolean {
  try {
    kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** A lock file is a few hundred bytes; anything larger is not one. */
const MAX_LOCK_BYTES = 4096;

function readLock(path: string): LockBody | null {
  try {
    const body = JSON.parse(readBounded(path, MAX_LOCK_BYTES) ?? "null") as LockBody | null;
    return body && typeof body.pid === "number" && typeof body.nonce === "string" ? body : null;
  } catch {
    return null;
  }
}

/** What is at the lock's name must be a lock file: a directory, a symlink or a device there is refused, never waited on forever. */
function checkIsFile(path: string): void {
  let st: ReturnType<typeof lstatSync>;
  try {
    st = lstatSync(path);
  } catch {
    return;
  }
  if (st.isSymbolicLink())
    throw new StorageProblem("symlink", path, "the scan's lock is a symbolic link; remove it");
  if (!st.isFile())
    throw new StorageProblem("not_a_file", path, "the scan's lock is not a file (a directory?); remove it");
}

/** Which lock file this is: its nonce when readable, else the file itself (inode, size, mtime). */
function identityOf(path: string, body: LockBody | null): string | null {
  if (body) return `nonce:${body.nonce}`;
  try {
    const st = statSync(path);
    return `file:${st.ino}:${st.size}:${st.mtimeMs}`;
  } catch {
    return null;
  }
}

/**
 * The pid a breaker names. Its body is `{pid, at}`, not a lock's (readLock wants a nonce too, and
 * found none: a dead breaker's pid was never read, and it blocked the scan for the 10 s grace).
 */
function breakerPid(path: string): number | null {
  try {
    const body = JSON.parse(readBounded(path, MAX_LOCK_BYTES) ?? "null") as { pid?: unknown } | null;
    return typeof body?.pid === "number" ? body.pid : null;
  } catch {
    return null;
  }
}

/**
 * Remove the stale lock judged as `seen`, and only that one. Breakers take `<lock>.break`
 * exclusively first, then look again: a lock that another breaker already cleared and a new holder
 * already took has another identity and is left alone (reading and unlinking without this let a
 * second process delete a lock the first had just taken, and both held it). A breaker is inside for
 * microseconds; one left by a dead process is cleared (a dead breaker and two more racing on it is
 * the only window left). False when another process is breaking it now.
 */
function breakStale(path: string, seen: string | null): boolean {
  const breaker = `${path}.break`;
  try {
    writeNew(breaker, JSON.stringify({ pid: process.pid, at: new Date().toISOString() }));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const pid = breakerPid(breaker);
    let old = false;
    try {
      old = Date.now() - statSync(breaker).mtimeMs > UNREADABLE_GRACE_MS;
    } catch {}
    if (old || (pid !== null && !alive(pid))) {
      try {
        unlinkSync(breaker);
      } catch {}
    }
    return false;
  }
  try {
    const now = readLock(path);
    const current = identityOf(path, now);
    // Only a file that is there and is the one judged stale: while this process holds the breaker
    // nobody else removes it, so the unlink below removes exactly it. Nothing there (the caller read
    // the name while another breaker had just cleared it) is nothing to clear: a lock created in the
    // next instant needs no breaker, and an unlink here would delete it.
    if (current !== null && current === seen && stale(path, now)) unlinkSync(path);
  } catch {
    // Gone already: nothing to clear.
  } finally {
    try {
      unlinkSync(breaker);
    } catch {}
  }
  return true;
}

function stale(path: string, body: LockBody | null): boolean {
  if (body === null) {
    try {
      return Date.now() - statSync(path).mtimeMs > UNREADABLE_GRACE_MS;
    } catch {
      return true;
    }
  }
  const age = Date.now() - Date.parse(body.acquired_at);
  return body.host === hostname() && (!alive(body.pid) || age > MAX_HOLD_MS);
}

/**
 * Who holds the scan's lock now, if a live call does: read only, never waiting and never clearing a
 * stale lock (scan_result uses it to say a call is running instead of "poll with scan_continue").
 */
export function liveHolder(path: string): { tool: string; since: string } | null {
  const body = readLock(path);
  if (body === null || stale(path, body)) return null;
  return { tool: body.tool, since: body.acquired_at };
}

export interface HeldLock {
  release(): void;
  /** The stale lock this acquisition cleared, if any. */
  cleared: { pid: number; tool: string; acquired_at: string } | null;
}

/**
 * Remove the temp files in `dir` (fsio's tempPathFor: the lock's own and the atomic writes') whose
 * writer is dead or that are older than any write takes: what a kill -9 mid-write leaves behind.
 */
function sweepTemps(dir: string): void {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  for (const entry of entries) {
    const pid = tempWriter(entry);
    if (pid === undefined) continue;
    const path = join(dir, entry);
    try {
      const old = Date.now() - statSync(path).mtimeMs > UNREADABLE_GRACE_MS;
      if (old || !alive(pid)) unlinkSync(path);
    } catch {}
  }
}

/**
 * Create the lock at `path` holding `body`, all at once: the body is written to a temp file and
 * hard-linked to the lock's name, so a holder killed at any instant leaves either no lock or a whole
 * one (never an empty file nobody can judge). Where the file system has no hard links, fall back to
 * an exclusive create and a write. False when a lock is already there.
 */
function createLock(path: string, body: LockBody): boolean {
  const text = JSON.stringify(body);
  const tmp = tempPathFor(path);
  writeNew(tmp, text);
  try {
    linkSync(tmp, path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return false;
    if (code !== "EPERM" && code !== "ENOTSUP" && code !== "ENOSYS" && code !== "EXDEV") throw error;
  } finally {
    try {
      unlinkSync(tmp);
    } catch {}
  }
  try {
    writeNew(path, text);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

/**
 * One lock per scan across processes: created exclusively and whole, holding pid, tool and time. A
 * dead holder's lock is cleared (and the temp files a killed writer left in the scan's directory);
 * a live one is conflict scan_in_progress.
 */
export function acquireLock(path: string, tool: string, now: Date): HeldLock {
  const body: LockBody = {
    pid: process.pid,
    tool,
    acquired_at: now.toISOString(),
    host: hostname(),
    nonce: randomBytes(8).toString("hex"),
  };
  let cleared: HeldLock["cleared"] = null;
  for (let attempt = 0; attempt < 50; attempt++) {
    if (!createLock(path, body)) {
      checkIsFile(path);
      const holder = readLock(path);
      if (!stale(path, holder)) {
        throw new ToolError(
          "conflict",
          "Another call is working on this scan; poll scan_result, which never waits.",
          {
            conflict: "scan_in_progress",
            ...(holder ? { holder: { pid: holder.pid, tool: holder.tool, since: holder.acquired_at } } : {}),
          },
        );
      }
      if (!breakStale(path, identityOf(path, holder))) {
        // Another process is clearing it this instant: look again in a moment.
        sleepSync(1);
        continue;
      }
      if (holder) cleared = { pid: holder.pid, tool: holder.tool, acquired_at: holder.acquired_at };
      continue;
    }
    // Held: what a killed writer left in this scan's directory (a lock's temp, an atomic write's) goes now.
    sweepTemps(dirname(path));
    return {
      cleared,
      release() {
        // Only our own lock: never remove one a later holder took after ours was cleared.
        if (readLock(path)?.nonce === body.nonce) {
          try {
            unlinkSync(path);
          } catch {}
        }
      },
    };
  }
  throw new ToolError("conflict", "The scan's lock kept changing hands; poll scan_result and try again.", {
    conflict: "scan_in_progress",
  });
}
