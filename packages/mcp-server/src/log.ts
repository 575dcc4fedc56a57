import { scrub } from "./scrub.js";

/** Logs go to stderr only (stdout carries JSON-RPC frames), always scrubbed. */
export function log(message: string): void {
  process.stderr.write(`${scrub(`[resmon-mcp] ${message}`)}\n`);
}
