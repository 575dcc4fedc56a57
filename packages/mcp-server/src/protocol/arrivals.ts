/**
 * When each tools/call line arrived, by its JSON-RPC id. A call's deadline (RESMON_MCP_TIMEOUT_MS)
 * counts from here, so the time a first call waits while the SDK loads is inside its timeout
 * rather than added to it: the bound a harness sees is timeout + 1 s from when it sent the line.
 */
import { processWide } from "../process-wide.js";

type Id = string | number;

/** Noted by the front, taken by the SDK side: one map for both bundles of the bin (process-wide.ts). */
const arrivals = processWide("arrivals", () => new Map<Id, number>());
/** A call refused before its handler runs never takes its entry: keep the oldest few at most. */
const MAX_PENDING = 1_000;

export function noteArrival(id: Id, at: number = Date.now()): void {
  arrivals.delete(id);
  arrivals.set(id, at);
  if (arrivals.size > MAX_PENDING) {
    const oldest = arrivals.keys().next().value;
    if (oldest !== undefined) arrivals.delete(oldest);
  }
}

export function takeArrival(id: Id): number | undefined {
  const at = arrivals.get(id);
  arrivals.delete(id);
  return at;
}
