import { printable, scrub } from "./scrub.js";

/**
 * Logs go to stderr only (stdout carries JSON-RPC frames), always scrubbed, one line each: a control
 * character in what is logged (resmon's text among it) is written out, never as itself.
 */
export function log(message: string): void {
  process.stderr.write(`${printable(scrub(`[resmon-mcp] ${message}`))}\n`);
}
