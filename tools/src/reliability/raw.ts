import { ServerProcess } from "./proc.js";

export type Frame = Record<string, unknown>;

/** A raw JSON-RPC conversation with a spawned server: write any bytes, read the frames it answers. */
export class RawSession {
  readonly frames: Frame[] = [];
  private waiters: Array<() => void> = [];

  constructor(readonly proc: ServerProcess) {
    proc.onLine((line) => {
      try {
        const f = JSON.parse(line) as unknown;
        if (f && typeof f === "object" && !Array.isArray(f)) this.frames.push(f as Frame);
      } catch {
        // the process records a non-frame line as a finding
      }
      for (const wake of this.waiters.splice(0)) wake();
    });
    void proc.exited.then(() => {
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  static spawn(label: string, env: Record<string, string>): RawSession {
    return new RawSession(new ServerProcess(label, env));
  }

  writeLine(text: string): void {
    if (this.proc.alive) this.proc.write(`${text}\n`);
  }

  send(message: Record<string, unknown>): void {
    this.writeLine(JSON.stringify({ jsonrpc: "2.0", ...message }));
  }

  /** The frame answering `id`, or null after `ms` (or once the process has exited). */
  async waitFor(id: unknown, ms = 5000): Promise<Frame | null> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.frames.find((f) => JSON.stringify(f.id) === JSON.stringify(id));
      if (found) return found;
      if (!this.proc.alive || Date.now() > deadline) return null;
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  }

  async request(id: unknown, method: string, params?: unknown, ms = 5000): Promise<Frame | null> {
    this.send({ id, method, ...(params === undefined ? {} : { params }) });
    return this.waitFor(id, ms);
  }

  async initialize(): Promise<Frame | null> {
    const answer = await this.request("init", "initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "reliability-raw", version: "0" },
    });
    this.send({ method: "notifications/initialized" });
    return answer;
  }

  /** Wait up to `ms` for the process to exit by itself. */
  async exitWithin(ms: number): Promise<boolean> {
    if (!this.proc.alive) return true;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    });
    const done = await Promise.race([this.proc.exited.then(() => true as const), timeout]);
    clearTimeout(timer);
    return done;
  }
}

export function errorCode(frame: Frame | null): number | null {
  const e = frame?.error as { code?: unknown } | undefined;
  return typeof e?.code === "number" ? e.code : null;
}
