import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { StdioPeer } from "../../src/bin/stdio-peer.js";

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The bin the package ships (package.json "bin"), as a harness runs it; the test task depends on the build. */
function shippedBin(): string {
  const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as {
    bin?: string | Record<string, string>;
  };
  const bin = typeof manifest.bin === "string" ? manifest.bin : manifest.bin?.["resmon-mcp"];
  return join(packageDir, bin ?? "dist/bin/cli.js");
}
export const CLI = shippedBin();
export const HAVE_CLI = existsSync(CLI);

export { cleanEnv } from "@resmon/testkit";

/**
 * The line the server's start-up probe wrote on stderr (src/bin/start-probe.ts), once it has. A test
 * that counts the requests one call sends waits for it first, so the probe's own is not counted.
 */
export async function waitForProbe(stderr: () => string): Promise<string> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const line = stderr()
      .split("\n")
      .find((l) => l.includes("start-up check:"));
    if (line) return line;
    if (Date.now() > deadline) throw new Error(`the start-up probe said nothing; stderr: ${stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * How long `request` waits before calling an answer missing: a guard against a hang, not a time
 * bound (a test about time asserts its own). A 6 MiB answer took 13.6 s at a load average of 20 on
 * 2 cores, and failed a 15 s guard at 27; under vitest's 60 s test timeout, so the error names the
 * request.
 */
const ANSWER_GUARD_MS = 45_000;

/**
 * A raw JSON-RPC conversation with the shipped bin, through the workspace's one stdio peer,
 * reading frames exactly as written to stdout (every byte kept in `stdout`).
 */
export class RawServer {
  readonly peer: StdioPeer;
  private waiters: Array<() => void> = [];

  constructor(env: Record<string, string>) {
    this.peer = new StdioPeer({ command: process.execPath, args: [CLI], env });
    this.peer.onLine(() => {
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  get child(): StdioPeer["child"] {
    return this.peer.child;
  }

  get stdout(): string {
    return this.peer.stdout;
  }

  get stderr(): string {
    return this.peer.stderr;
  }

  send(message: Record<string, unknown>): void {
    this.peer.send(message);
  }

  /** The start-up probe's line, once written (waitForProbe). */
  probed(): Promise<string> {
    return waitForProbe(() => this.stderr);
  }

  /** The complete frames so far: a line still being written (a large answer) is not one yet. */
  frames(): Record<string, unknown>[] {
    return this.stdout
      .slice(0, this.stdout.lastIndexOf("\n") + 1)
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  /** The answer to a request with this test's own `id` (the frames are read as written). */
  async request(
    id: number,
    method: string,
    params: Record<string, unknown> = {},
  ): Promise<Record<string, unknown>> {
    this.send({ id, method, params });
    const deadline = Date.now() + ANSWER_GUARD_MS;
    for (;;) {
      const found = this.frames().find((f) => f.id === id);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no answer to ${method}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }

  async initialize(): Promise<Record<string, unknown>> {
    const answer = await this.request(0, "initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "raw", version: "0" },
    });
    this.send({ method: "notifications/initialized" });
    return answer;
  }

  async stop(): Promise<void> {
    await this.peer.close(5000);
  }
}
