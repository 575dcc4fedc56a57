/**
 * A minimal MCP client over a child's stdio: newline-delimited JSON-RPC, as the stdio transport
 * frames it. No SDK on this side, so the client's own cost stays small and the same for every run.
 */
import { type ChildProcessByStdio, spawn } from "node:child_process";
import type { Readable, Writable } from "node:stream";

type Json = Record<string, unknown>;

export interface RpcReply {
  /** The raw frame as it arrived (without the newline). */
  line: string;
  /** Parsed on first use, so timing loops do not pay the client-side JSON.parse of big answers. */
  readonly message: Json;
}

function replyOf(line: string): RpcReply {
  let parsed: Json | undefined;
  return {
    line,
    get message() {
      parsed ??= JSON.parse(line) as Json;
      return parsed;
    },
  };
}

/** The SDK writes `{"result":…,"jsonrpc":"2.0","id":N}`: read the id from the tail, else parse. */
function idOf(line: string): unknown {
  const tail = /"id":(\d+)\}$/.exec(line.slice(-40));
  if (tail) return Number(tail[1]);
  return (JSON.parse(line) as Json).id;
}

export const INITIALIZE = {
  protocolVersion: "2025-06-18",
  capabilities: {},
  clientInfo: { name: "resmon-bench", version: "1.0.0" },
};

export class StdioRpc {
  readonly child: ChildProcessByStdio<Writable, Readable, null>;
  private nextId = 1;
  private buffer = "";
  private readonly pending = new Map<number, (reply: RpcReply) => void>();
  private exited = false;
  /** Frames received, answers and anything else. */
  frames = 0;

  constructor(command: string, args: readonly string[], env: Record<string, string>) {
    this.child = spawn(command, args, { stdio: ["pipe", "pipe", "ignore"], env });
    this.child.stdout.setEncoding("utf8");
    this.child.stdout.on("data", (chunk: string) => this.onData(chunk));
    this.child.on("exit", () => {
      this.exited = true;
      for (const resolve of this.pending.values()) resolve(replyOf('{"error":"exited"}'));
      this.pending.clear();
    });
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  private onData(chunk: string): void {
    this.buffer += chunk;
    let newline = this.buffer.indexOf("\n");
    while (newline >= 0) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + 1);
      newline = this.buffer.indexOf("\n");
      if (!line.trim()) continue;
      this.frames += 1;
      const id = idOf(line);
      if (typeof id !== "number") continue;
      const resolve = this.pending.get(id);
      this.pending.delete(id);
      resolve?.(replyOf(line));
    }
  }

  /** Send a request and resolve with its answer frame. */
  request(method: string, params?: Json): Promise<RpcReply> {
    if (this.exited) return Promise.reject(new Error("the server exited"));
    const id = this.nextId++;
    const frame = JSON.stringify(
      params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params },
    );
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.child.stdin.write(`${frame}\n`);
    });
  }

  notify(method: string): void {
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method })}\n`);
  }

  /** initialize, notifications/initialized: what every MCP client does first. */
  async handshake(): Promise<void> {
    await this.request("initialize", INITIALIZE);
    this.notify("notifications/initialized");
  }

  async callTool(name: string, args: Json): Promise<RpcReply> {
    return this.request("tools/call", { name, arguments: args });
  }

  async close(): Promise<void> {
    if (this.exited) return;
    const exited = new Promise<void>((resolve) => this.child.once("exit", () => resolve()));
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 3000);
    await exited;
    clearTimeout(timer);
  }
}
