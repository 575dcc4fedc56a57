import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import {
  Client,
  type JSONRPCMessage,
  ReadBuffer,
  serializeMessage,
  type Transport,
} from "@modelcontextprotocol/client";
import { StdioPeer } from "@resmon/mcp-server/stdio-peer";
import { CANARIES, leaksIn } from "./canaries.js";

const require = createRequire(import.meta.url);
const DIST = join(dirname(require.resolve("@resmon/mcp-server/package.json")), "dist");
/** The real server, as a harness starts it: `node packages/mcp-server/dist/bin/cli.js`. */
export const SERVER_CLI = join(DIST, "bin", "cli.js");
/** The bundled bin the published package runs (`npx @resmon/mcp-server`). */
export const SERVER_BUNDLE = join(DIST, "resmon-mcp.cjs");

/** RESMON_RELIABILITY_BIN=bundle runs the suite against the bundled bin instead of dist/bin/cli.js. */
const serverFile = process.env.RESMON_RELIABILITY_BIN === "bundle" ? SERVER_BUNDLE : SERVER_CLI;
export function currentServerFile(): string {
  return serverFile;
}

export { cleanEnv } from "@resmon/testkit";

/** A problem found in the bytes a server wrote. */
export interface ByteFinding {
  stream: "stdout" | "stderr";
  what: string;
  excerpt: string;
}

/** Every server process this test file started, so its last test can account for all their bytes. */
const ALL_PROCESSES: ServerProcess[] = [];

/**
 * One spawned `resmon-mcp`, through the workspace's one stdio peer. Every byte it writes is
 * inspected as it arrives: stdout line by line (each must be a JSON-RPC 2.0 frame), stderr as a
 * whole; both for canaries and stack traces.
 */
export class ServerProcess extends StdioPeer {
  readonly findings: ByteFinding[] = [];
  private lineListeners: Array<(line: string) => void> = [];

  constructor(
    readonly label: string,
    env: Record<string, string>,
  ) {
    super({ command: process.execPath, args: [serverFile], env, keepOutput: false });
    ALL_PROCESSES.push(this);
    super.onLine((raw) => {
      const line = raw.replace(/\r$/, "");
      this.checkFrame(line);
      for (const l of this.lineListeners) l(line);
    });
    this.onStderr((text) => {
      this.stderr += text;
      if (this.stderr.length > 1_000_000) this.stderr = this.stderr.slice(-500_000);
      this.inspect("stderr", text);
    });
  }

  get stdoutLines(): number {
    return this.lines;
  }

  /** Each stdout line, without its newline (or a trailing carriage return). */
  override onLine(listener: (line: string) => void): void {
    this.lineListeners.push(listener);
  }

  private checkFrame(line: string): void {
    this.inspect("stdout", line);
    let frame: unknown;
    try {
      frame = JSON.parse(line);
    } catch {
      this.findings.push({ stream: "stdout", what: "a line that is not JSON", excerpt: line.slice(0, 160) });
      return;
    }
    const ok =
      typeof frame === "object" && frame !== null && (frame as { jsonrpc?: unknown }).jsonrpc === "2.0";
    if (!ok)
      this.findings.push({ stream: "stdout", what: "not a JSON-RPC 2.0 frame", excerpt: line.slice(0, 160) });
  }

  private inspect(stream: "stdout" | "stderr", text: string): void {
    for (const hit of CANARIES.foundIn(text))
      this.findings.push({ stream, what: `canary ${hit}`, excerpt: "" });
    for (const leak of leaksIn(text)) {
      const at = Math.max(0, text.search(/ {4}at |Error: |node:internal/) - 60);
      this.findings.push({ stream, what: leak, excerpt: text.slice(at, at + 200) });
    }
  }

  /** Anything left without a final newline counts too. */
  flush(): void {
    const rest = this.takeRest();
    if (rest.length > 0) this.checkFrame(rest);
  }

  /** Resident set size of the server process in KiB (Linux /proc), or null. */
  rssKiB(): number | null {
    return this.statusKiB("VmRSS");
  }

  /** The peak resident set size of the process so far (VmHWM), in KiB, or null once it has exited. */
  peakRssKiB(): number | null {
    return this.statusKiB("VmHWM");
  }

  private statusKiB(field: "VmRSS" | "VmHWM"): number | null {
    try {
      const status = readFileSync(`/proc/${this.child.pid}/status`, "utf8");
      const m = new RegExp(`${field}:\\s+(\\d+)\\s+kB`).exec(status);
      return m ? Number(m[1]) : null;
    } catch {
      return null;
    }
  }

  /**
   * Sample the peak RSS every 25 ms and SIGKILL the process past `killAboveKiB`, so a server that
   * buffers an endless body cannot take the shared machine down with it. Returns a stop function
   * giving the highest peak seen (null if /proc could not be read at all).
   */
  guardRss(killAboveKiB: number): () => number | null {
    let peak: number | null = null;
    const sample = (): void => {
      const now = this.peakRssKiB();
      if (now !== null) peak = Math.max(peak ?? 0, now);
      if (now !== null && now > killAboveKiB && this.alive) {
        this.killedForRssKiB = now;
        this.child.kill("SIGKILL");
      }
    };
    sample();
    const timer = setInterval(sample, 25);
    return () => {
      sample();
      clearInterval(timer);
      return peak;
    };
  }

  /** Set when guardRss had to kill the process. */
  killedForRssKiB: number | null = null;

  /** Close stdin and wait (bounded) for the process to exit by itself; SIGKILL past the bound. */
  async stop(boundMs = 5000): Promise<{ clean: boolean; ms: number }> {
    const stopped = await this.close(boundMs);
    this.flush();
    return stopped;
  }
}

/** The SDK's Transport over a ServerProcess, so an SDK Client talks to the real bin and every byte is seen. */
class ProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  private readonly buffer = new ReadBuffer({ maxBufferSize: 512 * 1024 * 1024 });

  constructor(private readonly proc: ServerProcess) {}

  async start(): Promise<void> {
    this.proc.onLine((line) => {
      this.buffer.append(Buffer.from(`${line}\n`, "utf8"));
      for (;;) {
        let message: JSONRPCMessage | null;
        try {
          message = this.buffer.readMessage();
        } catch (err) {
          this.onerror?.(err instanceof Error ? err : new Error(String(err)));
          continue;
        }
        if (!message) break;
        this.onmessage?.(message);
      }
    });
    void this.proc.exited.then(() => this.onclose?.());
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!this.proc.alive) throw new Error("server process has exited");
    this.proc.write(serializeMessage(message));
  }

  async close(): Promise<void> {
    await this.proc.stop();
  }
}

/** Spawn the real server and connect an SDK Client to it. */
export async function connectClient(
  label: string,
  env: Record<string, string>,
): Promise<{ client: Client; proc: ServerProcess }> {
  const proc = new ServerProcess(label, env);
  const client = new Client({ name: `reliability-${label}`, version: "0.0.0" });
  await client.connect(new ProcessTransport(proc), { timeout: 15_000 });
  return { client, proc };
}

/** The findings a process has added since `before` (a count taken earlier), as one sentence or null. */
export function newFindings(proc: ServerProcess, before: number): string | null {
  const found = proc.findings.slice(before);
  const first = found[0];
  return first === undefined
    ? null
    : `'${proc.label}' wrote ${found.length} bad thing(s), first on ${first.stream}: ${first.what} ${first.excerpt}`;
}

/**
 * Stop every server process this file started and account for every byte each wrote: the
 * problems found (one sentence per process), and how many bytes were inspected.
 */
export async function inspectAllProcesses(): Promise<{
  problems: string[];
  bytes: number;
  processes: number;
}> {
  const problems: string[] = [];
  let bytes = 0;
  for (const proc of ALL_PROCESSES) {
    if (proc.alive) await proc.stop(3000);
    proc.flush();
    bytes += proc.stdoutBytes + Buffer.byteLength(proc.stderr);
    const problem = newFindings(proc, 0);
    if (problem !== null) problems.push(problem);
  }
  return { problems, bytes, processes: ALL_PROCESSES.length };
}
