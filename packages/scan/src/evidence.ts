import { lstatSync, readdirSync, type Stats } from "node:fs";
import { join } from "node:path";
import { isCanonicalUuid4 } from "@resmon/api-client";
import { ToolError } from "@resmon/mcp-contract";
import { invalidArgument } from "./errors.js";
import { nextStep, phaseOf } from "./steps.js";
import { FILES, MAX_STATE_BYTES, ScanDir } from "./store.js";

/** The evidence files a finished scan serves by name (MCP resources, scan_result's text), nothing else. */
export const EVIDENCE_FILES = [FILES.md, FILES.json, FILES.bib] as const;
export type EvidenceFile = (typeof EVIDENCE_FILES)[number];

/** The largest evidence file served; a larger one is refused, never read whole (a 25-paper scan's is tens of KB). */
export const MAX_EVIDENCE_BYTES = 4 * 1024 * 1024;

export interface EvidenceArgs {
  scan_id: string;
  file: string;
}

export interface Evidence {
  scan_id: string;
  file: EvidenceFile;
  text: string;
}

export function isEvidenceFile(name: unknown): name is EvidenceFile {
  return typeof name === "string" && (EVIDENCE_FILES as readonly string[]).includes(name);
}

/**
 * One evidence file of a finished scan, read the one way every reader uses: the scan id checked, only
 * the fixed names, inside the scan's own directory (its scan.json naming this scan_id), never through
 * a symlink, up to MAX_EVIDENCE_BYTES, and through the scrubber. Read-only: never waits on the lock.
 */
/**
 * The scan_id of an evidence read: no tool row parsed it (a resource address is not a tool call's
 * arguments), so it is checked here, in the words scan_id's row uses.
 */
function checkScanId(scanId: unknown): string {
  if (typeof scanId !== "string" || !isCanonicalUuid4(scanId)) {
    // A UUID in capitals is the one mistake a caller can fix at once: say so in words.
    const capitals = typeof scanId === "string" && isCanonicalUuid4(scanId.toLowerCase());
    throw invalidArgument(
      "scan_id",
      capitals
        ? "scan_id has capital letters: use lowercase (the same UUID, lowercased)."
        : "scan_id must be a canonical lowercase UUIDv4 made by the caller.",
    );
  }
  return scanId;
}

export function readEvidence(
  root: string,
  args: EvidenceArgs,
  scrub: (text: string) => string = (t) => t,
): Evidence {
  const scanId = checkScanId(args?.scan_id);
  const file = args?.file;
  if (!isEvidenceFile(file)) {
    throw invalidArgument(
      "file",
      `A scan's evidence is ${EVIDENCE_FILES.join(", ")}; there is no evidence file named ${JSON.stringify(String(file)).slice(0, 80)}.`,
      { files: [...EVIDENCE_FILES] },
    );
  }
  const dir = new ScanDir(root, scanId, scrub);
  const state = dir.readState();
  if (!state) {
    throw new ToolError("not_found", `There is no scan ${scanId} here; start it with scan_start.`, {
      scan_id: scanId,
    });
  }
  if (state.files === null) {
    throw new ToolError(
      "not_found",
      `Scan ${scanId} has no evidence yet: its files are written when it completes (follow next_action).`,
      { scan_id: scanId, reason: "not_complete", phase: phaseOf(state, nextStep(state)) },
    );
  }
  const text = dir.readText(file, MAX_EVIDENCE_BYTES);
  if (text === undefined) {
    throw new ToolError("not_found", `Scan ${scanId} is complete but its ${file} is not there.`, {
      scan_id: scanId,
      reason: "file_missing",
      file,
    });
  }
  // Written through the scrubber already; read through it again, so a file changed since is no leak either.
  return { scan_id: scanId, file, text: scrub(text) };
}

export interface EvidenceListing {
  scan_id: string;
  file: EvidenceFile;
  bytes: number;
  /** When the file was last written (ms since the epoch). */
  written_at: number;
}

/** One page of the evidence a read serves; `next` is where the next page starts (absent on the last). */
export interface EvidencePage {
  files: EvidenceListing[];
  next?: number;
}

/** Scans one page lists: twenty scans' three files. */
export const EVIDENCE_PAGE_SCANS = 20;
/** The most scans one page looks into, so a directory of refused scans cannot make one page read them all. */
const MAX_EXAMINED = 3 * EVIDENCE_PAGE_SCANS;

const SCAN_DIR_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/**
 * The evidence files a read would serve (readEvidence), newest scan first, one page from `from` (a
 * position among the scans holding evidence files; 0 for the first page). Only what a read serves
 * (issue 41): a scan whose scan.json is readable, names this scan and says it is complete, and of it
 * only regular files within MAX_EVIDENCE_BYTES; so not another scan's copy, a corrupt or oversized
 * scan.json, an unfinished scan, a symlink or an oversized file. Each scan listed has had its
 * scan.json read once, as a read does; the rest is directory entries and lstat.
 */
export function listEvidence(root: string, from = 0): EvidencePage {
  const scans = scansWithEvidence(root);
  const files: EvidenceListing[] = [];
  const start = Math.max(0, from);
  let at = start;
  let listed = 0;
  while (at < scans.length && listed < EVIDENCE_PAGE_SCANS && at - start < MAX_EXAMINED) {
    const served = servedOf(root, scans[at++] as EvidenceListing[]);
    if (served.length > 0) listed += 1;
    files.push(...served);
  }
  return at < scans.length ? { files, next: at } : { files };
}

/**
 * The most bytes one scan.json read by the page from `from` holds (lstat sizes): the page reads
 * them one after another, so the largest is what it holds at once. The server takes that room in
 * its budget of large answers before it lists (issue 41: every file read counts against one bound).
 */
export function evidencePageStateBytes(root: string, from = 0): number {
  const start = Math.max(0, from);
  let largest = 0;
  for (const files of scansWithEvidence(root).slice(start, start + MAX_EXAMINED)) {
    const scanId = files[0]?.scan_id;
    if (scanId === undefined) continue;
    const st = lstatOrUndefined(join(root, scanId, FILES.state));
    // One over the ceiling is refused by its size, never read.
    if (st?.isFile() && st.size <= MAX_STATE_BYTES) largest = Math.max(largest, st.size);
  }
  return largest;
}

/** Of one scan's evidence files, those a read serves: none unless its state is its own and complete. */
function servedOf(root: string, files: EvidenceListing[]): EvidenceListing[] {
  const scanId = files[0]?.scan_id;
  if (scanId === undefined) return [];
  try {
    const state = new ScanDir(root, scanId).readState();
    if (!state || state.files === null) return [];
  } catch {
    return [];
  }
  return files.filter((f) => f.bytes <= MAX_EVIDENCE_BYTES);
}

/**
 * Each scan directory's evidence files by lstat alone, newest scan first: only directories named as
 * scan ids (never a symlink), only the fixed names, only regular files.
 */
function scansWithEvidence(root: string): EvidenceListing[][] {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return [];
  }
  const scans: { at: number; files: EvidenceListing[] }[] = [];
  for (const scanId of names.filter((n) => SCAN_DIR_NAME.test(n))) {
    const dir = join(root, scanId);
    if (!lstatOrUndefined(dir)?.isDirectory()) continue;
    const files: EvidenceListing[] = [];
    for (const file of EVIDENCE_FILES) {
      const st = lstatOrUndefined(join(dir, file));
      if (st?.isFile()) files.push({ scan_id: scanId, file, bytes: st.size, written_at: st.mtimeMs });
    }
    if (files.length) scans.push({ at: Math.max(...files.map((f) => f.written_at)), files });
  }
  // One scan's files together, in the fixed order; the scan written last first.
  scans.sort((a, b) => b.at - a.at || String(a.files[0]?.scan_id).localeCompare(String(b.files[0]?.scan_id)));
  return scans.map((s) => s.files);
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}
