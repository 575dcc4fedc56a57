import { spawn } from "node:child_process";
import { hostname } from "node:os";

/** A pid that is certainly not running: a child that has exited. */
export async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""]);
  await new Promise((resolve) => child.on("exit", resolve));
  return child.pid as number;
}

/** The body of a lock file as the engine writes it. */
export function lockBody(pid: number, tool: string, acquiredAt = new Date().toISOString()): string {
  return JSON.stringify({ pid, tool, acquired_at: acquiredAt, host: hostname(), nonce: `test-${pid}` });
}
