/**
 * A minimal MCP client over a child's stdio, for the live check: newline-delimited JSON-RPC, as a
 * harness speaks it, keeping every byte the child wrote so the check can look for the token in all
 * of it (not only in the answers it parsed).
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";

export interface StdioPeerOptions {
  command: string;
  args: string[];
  env: Record<string, string>;
  /** How long one request may wait for its answer. */
  requestTimeoutMs: number;
}

type Pending = { resolve: (frame: Record<string, unknown>) => void; reject: (error: Error) => void };

export class StdioPeer {
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #pending = new Map<number, Pending>();
  readonly #timeoutMs: number;
  #buffered = "";
  #nextId = 1;
  stdout = "";
  stderr = "";

  constructor(options: StdioPeerOptions) {
    this.#timeoutMs = options.requestTimeoutMs;
    this.#child = spawn(options.command, options.args, { env: options.env, stdio: ["pipe", "pipe", "pipe"] });
    this.#child.stdout.setEncoding("utf8");
    this.#child.stderr.setEncoding("utf8");
    this.#child.stdout.on("data", (text: string) => this.#onStdout(text));
    this.#child.stderr.on("data", (text: string) => {
      this.stderr += text;
    });
    this.#child.stdin.on("error", () => undefined);
    this.#child.on("exit", () => {
      for (const pending of this.#pending.values()) pending.reject(new Error("the server exited"));
      this.#pending.clear();
    });
  }

  #onStdout(text: string): void {
    this.stdout += text;
    this.#buffered += text;
    let newline = this.#buffered.indexOf("\n");
    while (newline >= 0) {
      const line = this.#buffered.slice(0, newline);
      this.#buffered = this.#buffered.slice(newline + 1);
      newline = this.#buffered.indexOf("\n");
      if (line.trim() === "") continue;
      let frame: Record<string, unknown>;
      try {
        frame = JSON.parse(line) as Record<string, unknown>;
      } catch {
        continue;
      }
      const pending = typeof frame.id === "number" ? this.#pending.get(frame.id) : undefined;
      if (pending && typeof frame.id === "number") {
        this.#pending.delete(frame.id);
        pending.resolve(frame);
      }
    }
  }

  #send(message: Record<string, unknown>): void {
    this.#child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
  }

  notify(method: string, params: Record<string, unknown> = {}): void {
    this.#send({ method, params });
  }

  /** The JSON-RPC answer frame, or a rejection when none came within the timeout. */
  request(method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const id = this.#nextId;
    this.#nextId += 1;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new Error(`no answer to ${method} within ${this.#timeoutMs} ms`));
      }, this.#timeoutMs);
      this.#pending.set(id, {
        resolve: (frame) => {
          clearTimeout(timer);
          resolve(frame);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      this.#send({ id, method, params });
    });
  }

  async close(): Promise<void> {
    if (this.#child.exitCode !== null || this.#child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.#child.once("exit", () => resolve()));
    this.#child.stdin.end();
    const timer = setTimeout(() => this.#child.kill("SIGKILL"), 3_000);
    await exited;
    clearTimeout(timer);
  }
}
