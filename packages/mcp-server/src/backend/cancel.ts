/**
 * Cancel (notifications/cancelled): a cancelled call sends nothing more, aborts its request in
 * flight through the same signal, and ends once that request has.
 */
import { backendUnavailable, type ToolError } from "../errors.js";

/** A call the client cancelled: it sends nothing more. */
export function cancelledError(): ToolError {
  return backendUnavailable("The client cancelled this call, so it sent nothing more to resmon.", [], false, {
    reason: "cancelled",
  });
}

/** The request one send has under way, if any. */
export interface Flight {
  request?: Promise<unknown>;
}

/** Once cancelled, waits for the request in flight to end (aborted by the same signal), so the call frees its place after it. */
export async function settleCancelled(flight: Flight, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) await flight.request?.catch(() => undefined);
}
