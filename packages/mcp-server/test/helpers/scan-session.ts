import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { Client, type VersionNegotiationMode } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { serverEnv, type Testkit, type ToolCall } from "@resmon/testkit";
import { isError, parsed } from "./mcp.js";
import { CLI } from "./spawn.js";

/** One `resmon-mcp` process over stdio (the SDK client), with the scan state in `dataDir`. */
export interface ScanSession {
  readonly client: Client;
  readonly pid: number;
  call: ToolCall;
  /** Everything the server wrote on stderr so far. */
  stderr(): string;
  close(): Promise<void>;
}

export async function openScanSession(
  kit: Testkit,
  dataDir: string,
  extraEnv: Record<string, string> = {},
  /** The SDK Client's era negotiation (default: the 2025 `initialize` handshake). */
  mode?: VersionNegotiationMode,
): Promise<ScanSession> {
  let stderr = "";
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI],
    env: serverEnv(kit, { RESMON_MCP_SCAN_DATA: dataDir, ...extraEnv }),
    stderr: "pipe",
  });
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const client = new Client(
    { name: "scan-e2e", version: "0.0.0" },
    mode === undefined ? {} : { versionNegotiation: { mode } },
  );
  await client.connect(transport);
  const pid = transport.pid;
  if (pid === null) throw new Error("the server did not start");
  return {
    client,
    pid,
    call: async (name, args) => {
      const result = await client.callTool({ name, arguments: args }, { timeout: 120_000 });
      return { ok: !isError(result), body: parsed(result) };
    },
    stderr: () => stderr,
    close: () => client.close(),
  };
}

/** Every file under `dir` (relative paths), to prove a refusal wrote nothing. */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (at: string, rel: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      const relPath = rel ? `${rel}/${name}` : name;
      if (statSync(path).isDirectory()) walk(path, relPath);
      else out.push(relPath);
    }
  };
  walk(dir, "");
  return out.sort();
}

/** The sweeps the stand-in admitted (POST answered 200), by query, counting each. */
export function admittedSweeps(kit: Testkit, from = 0): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of kit.requests.slice(from)) {
    if (r.method !== "POST" || r.route !== "/api/search/sweep" || r.status !== 200) continue;
    const query = String((r.body as { query?: unknown } | null)?.query ?? "");
    out.set(query, (out.get(query) ?? 0) + 1);
  }
  return out;
}

export const randomScanId = () => crypto.randomUUID();
