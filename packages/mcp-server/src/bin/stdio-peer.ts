/**
 * The one hand-written MCP peer over a child's stdio: newline-delimited JSON-RPC, as a harness
 * speaks it, with no SDK on this side (so its own cost stays small and the same for every run).
 * `doctor --tools` uses it (live-check.ts), and so do the tests, the bench and the reliability
 * suite (exported as `@resmon/mcp-server/stdio-peer` inside the workspace; not published).
 * It can keep every byte the child wrote, so a check can look for the token in all of it, not
 * only in the answers it parsed.
 */
import { type ChildProcess, spawn } from "node:child_process";
import type { Readable, Writable } from "node:stream";

type Json = Record<string, unknown>;
type Id = string | number;

export interface StdioPeerOptions {
  command: string;
  args: readonly string[];
  env: Record<string, string>;
  /** How long one request may wait for its answer (default: as long as the child runs). */
  requestTimeoutMs?: number;
  /** Keep everything the child wrote in `stdout` and `stderr` (default true). */
  keepOutput?: boolean;
  /** What becomes of the child's stderr (default "pipe": kept, and given to `onStderr` listeners). */
  stderr?: "pipe" | "ignore";
}

export interface PeerReply {
  /** The frame as it arrived (without its newline). */
  line: string;
  /** Parsed on first use, so timing loops do not pay for parsing large answers. */
  readonly message: Json;
}

export interface PeerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

function replyOf(line: string): PeerReply {
  let parsed: Json | undefined;
  return {
    line,
    get message() {
      parsed ??= JSON.parse(line) as Json;
      return parsed;
    },
  };
}

/**
 * A frame's id. The SDK writes `{…,"jsonrpc":"2.0","id":N}`, so a numeric id is read from the tail
 * (a nested `"id"` would be followed by more than one `}`); anything else is parsed.
 */
function idOf(line: string): unknown {
  const tail = /"id":(\d+)\}$/.exec(line.slice(-40));
  if (tail) return Number(tail[1]);
  try {
    return (JSON.parse(line) as Json).id;
  } catch {
    return undefined;
  }
}

type Pending = { resolve: (reply: PeerReply) => void; reject: (error: Error) => void };

export class StdioPeer {
  readonly child: ChildProcess & { stdin: Writable; stdout: Readable };
  /** Everything the child wrote, when `keepOutput` (the default). */
  stdout = "";
  stderr = "";
  /** Bytes and complete lines the child wrote on stdout. */
  stdoutBytes = 0;
  lines = 0;
  exit: PeerExit | null = null;
  readonly exited: Promise<PeerExit>;
  readonly #pending = new Map<Id, Pending>();
  readonly #lineListeners: ((line: string) => void)[] = [];
  readonly #stderrListeners: ((text: string) => void)[] = [];
  readonly #timeoutMs: number | undefined;
  readonly #keep: boolean;
  #buffered = "";
  #nextId = 1;

  constructor(options: StdioPeerOptions) {
    this.#timeoutMs = options.requestTimeoutMs;
    this.#keep = options.keepOutput ?? true;
    this.child = spawn(options.command, [...options.args], {
      env: options.env,
      stdio: ["pipe", "pipe", options.stderr ?? "pipe"],
    }) as StdioPeer["child"];
    this.exited = new Promise((resolve) => {
      this.child.once("exit", (code, signal) => {
        this.exit = { code, signal };
        for (const pending of this.#pending.values()) pending.reject(new Error("the server exited"));
        this.#pending.clear();
        resolve(this.exit);
      });
    });
    this.child.stdin.on("error", () => undefined);
    this.child.stdout.on("data", (chunk: Buffer) => this.#onStdout(chunk));
    this.child.stderr?.setEncoding("utf8");
    this.child.stderr?.on("data", (text: string) => {
      if (this.#keep) this.stderr += text;
      for (const listener of this.#stderrListeners) listener(text);
    });
  }

  #decoder = new TextDecoder("utf-8");

  #onStdout(chunk: Buffer): void {
    this.stdoutBytes += chunk.length;
    const text = this.#decoder.decode(chunk, { stream: true });
    if (this.#keep) this.stdout += text;
    this.#buffered += text;
    let newline = this.#buffered.indexOf("\n");
    while (newline >= 0) {
      const line = this.#buffered.slice(0, newline);
      this.#buffered = this.#buffered.slice(newline + 1);
      newline = this.#buffered.indexOf("\n");
      this.lines += 1;
      for (const listener of this.#lineListeners) listener(line);
      if (line.trim() === "") continue;
      const id = idOf(line);
      const pending = typeof id === "number" || typeof id === "string" ? this.#pending.get(id) : undefined;
      if (pending) {
        this.#pending.delete(id as Id);
        pending.resolve(replyOf(line));
      }
    }
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  get alive(): boolean {
    return this.exit === null && this.child.exitCode === null;
  }

  /** Every stdout line as it completes (without its newline), answers or not. */
  onLine(listener: (line: string) => void): void {
    this.#lineListeners.push(listener);
  }

  onStderr(listener: (text: string) => void): void {
    this.#stderrListeners.push(listener);
  }

  /** What the child wrote after its last newline, taken (a line it never finished). */
  takeRest(): string {
    const rest = this.#buffered;
    this.#buffered = "";
    return rest;
  }

  /** Raw bytes to the child's stdin. */
  write(text: string): void {
    this.child.stdin.write(text);
  }

  /** One JSON-RPC message (`jsonrpc` added). */
  send(message: Json): void {
    this.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
  }

  notify(method: string, params?: Json): void {
    this.send(params === undefined ? { method } : { method, params });
  }

  /** The answer to one request, or a rejection when none came within the timeout or the child exited. */
  request(method: string, params?: Json): Promise<PeerReply> {
    if (!this.alive) return Promise.reject(new Error("the server exited"));
    const id = this.#nextId;
    this.#nextId += 1;
    return new Promise((resolve, reject) => {
      const timer =
        this.#timeoutMs === undefined
          ? undefined
          : setTimeout(() => {
              this.#pending.delete(id);
              reject(new Error(`no answer to ${method} within ${this.#timeoutMs} ms`));
            }, this.#timeoutMs);
      const done = () => clearTimeout(timer);
      this.#pending.set(id, {
        resolve: (reply) => {
          done();
          resolve(reply);
        },
        reject: (error) => {
          done();
          reject(error);
        },
      });
      this.send(params === undefined ? { id, method } : { id, method, params });
    });
  }

  /** Close stdin and wait for the child to exit by itself; SIGKILL past `boundMs`. */
  async close(boundMs = 3_000): Promise<{ clean: boolean; ms: number }> {
    const started = Date.now();
    if (!this.alive) return { clean: this.exit?.code === 0, ms: 0 };
    this.child.stdin.end();
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      this.child.kill("SIGKILL");
    }, boundMs);
    await this.exited;
    clearTimeout(timer);
    return { clean: !killed && this.exit?.code === 0, ms: Date.now() - started };
  }
}
