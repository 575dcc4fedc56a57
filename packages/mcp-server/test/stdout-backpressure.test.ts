/**
 * Issue 25, item 2: many large answers at once, read slowly. The server must wait for the pipe
 * (honour write()'s return and 'drain'), hold a bounded amount, and drop nothing: every call is
 * answered and the server stays under 200 MB RSS. Before the fix, frames queued without bound
 * (gigabytes) and libuv's ENOBUFS dropped most of them.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { StringDecoder } from "node:string_decoder";
import { createResmonClient } from "@resmon/api-client";
import { startTestkit, type Testkit } from "@resmon/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, cleanEnv, HAVE_CLI } from "./helpers/spawn.js";

const CALLS = 200;
const RSS_LIMIT_KIB = 200 * 1024;
/** Past this the server is killed, so a regression cannot take the shared machine down with it. */
const KILL_ABOVE_KIB = 700 * 1024;

function peakRssKiB(pid: number): number | null {
  try {
    const m = /VmHWM:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

let kit: Testkit;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "resmon-mcp-backpressure-"));
  kit = await startTestkit({ stateDir: dir, seed: "demo" });
  // A 100-paper page whose papers each carry a long author list (a large collaboration's), about
  // 240 KiB a frame as the server answers it (~48 MB for all 200): before the fix every one of them
  // sat in stdout's buffer at once (peak RSS ~300 MB here, and with 1.5 MB frames 700 MB and more).
  const client = createResmonClient({ port: kit.port, token: kit.token });
  const answer = await client.POST("/api/explorer/search", {
    body: { query: "model", limit: 100, sort: "newest" },
  });
  await client.close();
  if (!answer.ok) throw new Error(`the stand-in's search failed: ${answer.error.kind}`);
  const page = answer.data as { results: Record<string, unknown>[] };
  const authors = Array.from({ length: 60 }, (_, i) => `Author Number${i}`).join(", ");
  const results = page.results.map((paper) => ({ ...paper, authors }));
  kit.setFault("/api/explorer/search", { kind: "status", status: 200, body: { ...page, results } });
}, 30_000);

afterAll(async () => {
  await kit?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!HAVE_CLI)("stdout under 200 concurrent large answers, read slowly", () => {
  it("answers every call and stays under 200 MB RSS", async () => {
    const child = spawn(process.execPath, [CLI], {
      env: cleanEnv({
        RESMON_PORT_FILE: kit.portFile ?? "",
        RESMON_STATE_DIR: dir,
        // The calls wait for the reader, not for resmon: no deadline should end one here.
        RESMON_MCP_TIMEOUT_MS: "300000",
      }),
      stdio: ["pipe", "pipe", "pipe"],
    });
    const pid = child.pid ?? -1;
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    let peak = 0;
    let killed = false;
    const guard = setInterval(() => {
      const now = peakRssKiB(pid);
      if (now !== null) peak = Math.max(peak, now);
      if (now !== null && now > KILL_ABOVE_KIB && !killed) {
        killed = true;
        child.kill("SIGKILL");
      }
    }, 25);
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

    // The reader: busy for the first 3 s (it reads nothing), then reading half the time.
    const answered = new Map<number, Record<string, unknown>>();
    let pending = "";
    let bytes = 0;
    const takeLines = (text: string) => {
      pending += text;
      let nl = pending.indexOf("\n");
      while (nl >= 0) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        nl = pending.indexOf("\n");
        const frame = JSON.parse(line) as Record<string, unknown>;
        if (typeof frame.id === "number") answered.set(frame.id, frame);
      }
    };
    const decoder = new StringDecoder("utf8");
    child.stdout.on("data", (chunk: Buffer) => {
      bytes += chunk.length;
      takeLines(decoder.write(chunk));
    });
    child.stdout.pause();
    let ticks = 0;
    const reader = setInterval(() => {
      ticks += 1;
      if (ticks > 30 && ticks % 2 === 0) child.stdout.resume();
      else child.stdout.pause();
    }, 100);
    const send = (message: Record<string, unknown>) =>
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);

    try {
      send({
        id: 0,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "slow", version: "0" },
        },
      });
      send({ method: "notifications/initialized" });
      // All at once, in one write: the harness fires them concurrently.
      let lines = "";
      for (let id = 1; id <= CALLS; id += 1)
        lines += `${JSON.stringify({
          jsonrpc: "2.0",
          id,
          method: "tools/call",
          params: { name: "search_corpus", arguments: { query: "model", limit: 100 } },
        })}\n`;
      child.stdin.write(lines);

      const deadline = Date.now() + 150_000;
      while (answered.size < CALLS + 1 && Date.now() < deadline && child.exitCode === null && !killed)
        await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      clearInterval(reader);
      clearInterval(guard);
      child.stdin.end();
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    }

    const calls = [...answered.entries()].filter(([id]) => id >= 1);
    const ok = calls.filter(([, frame]) => {
      const result = frame.result as { isError?: boolean; structuredContent?: { papers?: unknown[] } };
      return result?.isError !== true && result?.structuredContent?.papers?.length === 100;
    });
    const summary = `${calls.length} of ${CALLS} answered (${ok.length} with 100 papers), ${bytes} bytes read, peak RSS ${Math.round(peak / 1024)} MiB, answer lines ${Math.round(bytes / Math.max(1, answered.size) / 1024)} KiB each${killed ? " (killed)" : ""}; stderr: ${stderr.slice(-300)}`;
    expect(calls.length, summary).toBe(CALLS);
    expect(ok.length, summary).toBe(CALLS);
    expect(peak, summary).toBeLessThan(RSS_LIMIT_KIB);
  }, 180_000);
});
