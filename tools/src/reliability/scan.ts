/**
 * The scan group's plumbing: a scan-tools server over stdio with its scan data in a temp dir, a
 * `ToolCall` (testkit's followScan) over it that fails on anything outside the contract, and what
 * the stand-in's request log and the data dir say about a scan.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { serverEnv, type Testkit, type ToolCall } from "@resmon/testkit";
import { callTool, type Outcome } from "./outcome.js";
import { connectClient, newFindings, type ServerProcess } from "./proc.js";

export interface ScanServer {
  client: Client;
  proc: ServerProcess;
  /** One tool call: the contract's success or error, else it throws (a hang, a bad shape, internal_error, bad bytes). */
  call: ToolCall;
  /** The same, as the judged outcome (for calls whose answer the test inspects closely). */
  outcome: (name: string, args: Record<string, unknown>) => Promise<Outcome>;
}

const DEADLINE_MS = 60_000;

export async function scanServer(
  label: string,
  kit: Testkit,
  dataDir: string,
  waitMs: number,
): Promise<ScanServer> {
  const { client, proc } = await connectClient(
    label,
    serverEnv(kit, { RESMON_MCP_SCAN_DATA: dataDir, RESMON_MCP_SCAN_WAIT_MS: String(waitMs) }),
  );
  const outcome = async (name: string, args: Record<string, unknown>) => {
    const before = proc.findings.length;
    const got = await callTool(client, name, args, DEADLINE_MS);
    const written = newFindings(proc, before);
    if (written !== null) throw new Error(`${name}: ${written}`);
    return got;
  };
  const call: ToolCall = async (name, args) => {
    const got = await outcome(name, args);
    if (got.kind === "bad") throw new Error(`${name}: ${got.why}`);
    if (got.kind === "error" && got.code === "internal_error")
      throw new Error(`${name}: internal_error ${JSON.stringify(got.body).slice(0, 300)}`);
    return { ok: got.kind === "success", body: got.body };
  };
  return { client, proc, call, outcome };
}

/**
 * The scan's lock files (a stale one would hold the next call up). A lock is written as a temp file
 * and renamed, so a name read from the directory may be gone by the time it is looked at: skipped.
 */
export function lockFiles(dataDir: string, scanId: string): string[] {
  const dir = join(dataDir, scanId);
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter(
    (f) => /lock/i.test(f) && statSync(join(dir, f), { throwIfNoEntry: false })?.isFile() === true,
  );
}

export const EVIDENCE_FILES = ["evidence.json", "evidence.md", "evidence.bib"] as const;

export function missingEvidence(dataDir: string, scanId: string): string[] {
  return EVIDENCE_FILES.filter((f) => !existsSync(join(dataDir, scanId, f)));
}

/**
 * Sweeps the stand-in admitted (POST answered 200) since `from`, counted by request id and by
 * query text: a sweep started twice shows as a count above 1.
 */
export function admittedSweeps(
  kit: Testkit,
  from: number,
): { byRequest: Map<string, number>; byQuery: Map<string, number> } {
  const byRequest = new Map<string, number>();
  const byQuery = new Map<string, number>();
  for (const r of kit.requests.slice(from)) {
    if (r.method !== "POST" || r.route !== "/api/search/sweep" || r.status !== 200) continue;
    const body = (r.body ?? {}) as { query?: unknown; request_id?: unknown };
    const request = String(body.request_id ?? "none");
    const query = String(body.query ?? "");
    byRequest.set(request, (byRequest.get(request) ?? 0) + 1);
    byQuery.set(query, (byQuery.get(query) ?? 0) + 1);
  }
  return { byRequest, byQuery };
}

/** The counts above 1, as `key ×n` strings. */
export function startedTwice(counts: Map<string, number>): string[] {
  return [...counts].filter(([, n]) => n > 1).map(([k, n]) => `${k} ×${n}`);
}

export async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 15));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
