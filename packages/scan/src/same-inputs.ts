/**
 * A scan's inputs, recorded by their hash at the scans root, so the same brief sent again under a new
 * scan_id (a model's retry that lost the first id) is answered by the scan already open for it rather
 * than starting a duplicate that sends every sweep again. One small file per inputs hash, naming the
 * scan; never followed through a symlink, and a marker that cannot be read or written only means no
 * duplicate is caught.
 */
import { lstatSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ToolError } from "@resmon/mcp-contract";
import { replaceFile } from "./fsio.js";
import { acquireLock, type HeldLock } from "./lock.js";

const DIR = ".same-inputs";
const SCAN_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function markerDir(root: string, create: boolean): string | null {
  const dir = join(root, DIR);
  try {
    if (create) mkdirSync(dir, { recursive: true, mode: 0o700 });
    return lstatSync(dir).isDirectory() ? dir : null;
  } catch {
    return null;
  }
}

/** Record that `scanId` holds these inputs (the newest scan with them wins). */
export function recordInputs(root: string, hash: string, scanId: string): void {
  const dir = markerDir(root, true);
  if (dir === null) return;
  const tmp = join(dir, `${hash}.${process.pid}.tmp`);
  try {
    writeFileSync(tmp, scanId, { mode: 0o600, flag: "wx" });
    replaceFile(tmp, join(dir, hash));
  } catch {
    // Best effort: without the marker a duplicate is not caught, nothing else changes; no temp stays.
    try {
      unlinkSync(tmp);
    } catch {}
  }
}

/** The scan recorded with these inputs, if any (its id only; the caller reads and checks the scan). */
export function scanWithInputs(root: string, hash: string): string | null {
  const dir = markerDir(root, false);
  if (dir === null) return null;
  try {
    const path = join(dir, hash);
    if (!lstatSync(path).isFile()) return null;
    const id = readFileSync(path, "utf8").trim();
    return SCAN_ID.test(id) ? id : null;
  } catch {
    return null;
  }
}

/** How long a start waits for another start of the same inputs to record its scan (a few file writes). */
const CLAIM_WAIT_MS = 10_000;
const CLAIM_POLL_MS = 25;

/**
 * The inputs' claim: a lock on their hash, taken the way a scan's lock is (whole, exclusive, a dead
 * holder's cleared), held by one start from its look for an open scan with these inputs until its
 * own scan is saved and recorded, before anything is sent. A second start of the same inputs, in
 * this process or another, waits for it and then finds that scan (issue 41 point 2: two at once made
 * two scans and sent every sweep twice). Null when the claim cannot be stored (a read-only or odd
 * scans directory): then, as before, only a recorded scan is caught.
 */
export async function claimInputs(root: string, hash: string): Promise<HeldLock | null> {
  const dir = markerDir(root, true);
  if (dir === null) return null;
  const path = join(dir, `${hash}.lock`);
  const until = Date.now() + CLAIM_WAIT_MS;
  for (;;) {
    try {
      return acquireLock(path, "scan_start", new Date());
    } catch (error) {
      const busy = error instanceof ToolError && error.detail?.conflict === "scan_in_progress";
      if (!busy) return null;
      if (Date.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, CLAIM_POLL_MS));
    }
  }
}
