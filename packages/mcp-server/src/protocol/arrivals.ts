/**
 * When each tools/call line arrived, by its JSON-RPC id. A call's deadline (RESMON_MCP_TIMEOUT_MS)
 * counts from here, so the time a first call waits while the SDK loads is inside its timeout
 * rather than added to it: the bound a harness sees is timeout + 1 s from when it sent the line.
 */
type Id = string | number;

/** One map for the process, on globalThis: the front notes arrivals, the SDK side (another bundle
 * of the published bin, with its own copy of this module) takes them. */
const ARRIVALS = Symbol.for("resmon-mcp/arrivals");
const shared = globalThis as { [ARRIVALS]?: Map<Id, number> };
shared[ARRIVALS] ??= new Map<Id, number>();
const arrivals: Map<Id, number> = shared[ARRIVALS];
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
