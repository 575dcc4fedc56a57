import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

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

/** A raw JSON-RPC conversation with `node dist/bin/cli.js`, reading frames exactly as written to stdout. */
export class RawServer {
  readonly child: ChildProcessWithoutNullStreams;
  stdout = "";
  stderr = "";
  private waiters: Array<() => void> = [];

  constructor(env: Record<string, string>) {
    this.child = spawn(process.execPath, [CLI], { env, stdio: ["pipe", "pipe", "pipe"] });
    this.child.stdout.on("data", (chunk: Buffer) => {
      this.stdout += chunk.toString("utf8");
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.child.stderr.on("data", (chunk: Buffer) => {
      this.stderr += chunk.toString("utf8");
    });
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

  send(message: Record<string, unknown>): void {
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
  }

  async request(
    id: number,
    method: string,
    params: Record<string, unknown> = {},
  ): Promise<Record<string, unknown>> {
    this.send({ id, method, params });
    const deadline = Date.now() + 15_000;
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
    if (this.child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once("exit", () => resolve()));
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 5000);
    await exited;
    clearTimeout(timer);
  }
}
