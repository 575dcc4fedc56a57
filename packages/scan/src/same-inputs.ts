/**
 * A scan's inputs, recorded by their hash at the scans root, so the same brief sent again under a new
 * scan_id (a model's retry that lost the first id) is answered by the scan already open for it rather
 * than starting a duplicate that sends every sweep again. One small file per inputs hash, naming the
 * scan; never followed through a symlink, and a marker that cannot be read or written only means no
 * duplicate is caught.
 */
import { lstatSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { replaceFile } from "./fsio.js";

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
