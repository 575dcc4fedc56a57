import { randomBytes } from "node:crypto";
import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { ScanError } from "./errors.js";

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

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readLock(path: string): LockBody | null {
  try {
    const body = JSON.parse(readFileSync(path, "utf8")) as LockBody;
    return typeof body.pid === "number" ? body : null;
  } catch {
    return null;
  }
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

export interface HeldLock {
  release(): void;
  /** The stale lock this acquisition cleared, if any. */
  cleared: { pid: number; tool: string; acquired_at: string } | null;
}

/**
 * One lock per scan across processes: created exclusively, holding pid, tool and time. A dead
 * holder's lock is cleared; a live one is conflict scan_in_progress.
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
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number;
    try {
      fd = openSync(path, "wx", 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = readLock(path);
      if (!stale(path, holder)) {
        throw new ScanError(
          "conflict",
          "Another call is working on this scan; poll scan_result, which never waits.",
          {
            conflict: "scan_in_progress",
            ...(holder ? { holder: { pid: holder.pid, tool: holder.tool, since: holder.acquired_at } } : {}),
          },
        );
      }
      try {
        unlinkSync(path);
      } catch {}
      if (holder) cleared = { pid: holder.pid, tool: holder.tool, acquired_at: holder.acquired_at };
      continue;
    }
    try {
      writeSync(fd, JSON.stringify(body));
    } finally {
      closeSync(fd);
    }
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
  throw new ScanError("conflict", "The scan's lock kept changing hands; poll scan_result and try again.", {
    conflict: "scan_in_progress",
  });
}
