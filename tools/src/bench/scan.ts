/**
 * A whole scan through the built server over stdio, against the bench's stand-in (demo data, its
 * default run duration): the scripted harness (@resmon/testkit's followScan) from scan_start to
 * scan_result. Timed from the first call to the last answer; backend requests are the stand-in's
 * request log over the same span.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type CallToolResult, Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { followScan, scanStartArgs, serverEnv, type Testkit, type ToolCall } from "@resmon/testkit";
import { builtServer } from "./launch.js";
import { type Row, row } from "./report.js";

export interface ScanRun {
  retrieval: "sweep" | "corpus";
  wallMs: number;
  toolCalls: number;
  backendRequests: number;
  sweepsAdmitted: number;
  sweepsRefused429: number;
  byRoute: Record<string, number>;
}

function callOver(client: Client): ToolCall {
  return async (name, args) => {
    const result = (await client.callTool({ name, arguments: args }, { timeout: 120_000 })) as CallToolResult;
    const first = result.content[0];
    const body = first?.type === "text" ? (JSON.parse(first.text) as Record<string, unknown>) : {};
    return { ok: result.isError !== true, body };
  };
}

export async function measureScan(kit: Testkit, retrieval: ScanRun["retrieval"]): Promise<ScanRun> {
  const dataDir = mkdtempSync(join(tmpdir(), "resmon-bench-scan-"));
  const launch = builtServer();
  const transport = new StdioClientTransport({
    command: launch.command,
    args: launch.args,
    env: serverEnv(kit, { RESMON_MCP_SCAN_DATA: dataDir }),
    stderr: "ignore",
  });
  const client = new Client({ name: "bench-scan", version: "0.0.0" });
  try {
    await client.connect(transport);
    const from = kit.requests.length;
    const started = performance.now();
    const { calls } = await followScan(callOver(client), scanStartArgs({ scanId: randomUUID(), retrieval }));
    const wallMs = performance.now() - started;
    const requests = kit.requests.slice(from);
    const byRoute: Record<string, number> = {};
    for (const r of requests) {
      const key = `${r.method} ${r.route ?? r.path}`;
      byRoute[key] = (byRoute[key] ?? 0) + 1;
    }
    const sweeps = requests.filter((r) => r.route === "/api/search/sweep");
    return {
      retrieval,
      wallMs,
      toolCalls: calls.length + 1,
      backendRequests: requests.length,
      sweepsAdmitted: sweeps.filter((r) => r.status === 200).length,
      sweepsRefused429: sweeps.filter((r) => r.status === 429).length,
      byRoute,
    };
  } finally {
    await client.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function scanRows(run: ScanRun): Row[] {
  const what = `whole scan over stdio, retrieval ${run.retrieval}, standard profile, demo data`;
  return [
    row(`${what}: wall time, scan_start → scan_result`, "ms", run.wallMs, null, "info", null),
    row(
      `${what}: backend requests (${run.sweepsAdmitted} sweeps admitted, ${run.sweepsRefused429} refused 429 and retried)`,
      "",
      run.backendRequests,
      null,
      "info",
      null,
    ),
    row(`${what}: tool calls`, "", run.toolCalls, null, "info", null),
  ];
}
