import { SCAN_TEACHING } from "./scan-teaching.js";
import { READ_TOOLS, WRITE_TOOLS } from "./table.js";

/**
 * The server's instructions after its identity line (which the server writes: it knows its own
 * package version): what every tool answers, what needs the person, and, when the writes are
 * listed, how a scan is run. The embedded assistant and any other harness read the same words.
 */
export function serverInstructions(readOnly: boolean): string {
  return [
    "Reads and drives a running resmon desktop app over its local API. Every tool answers its documented shape or {error, message, detail}.",
    readOnly
      ? `This session is read-only: only the ${READ_TOOLS.length} read tools are listed and every write is refused.`
      : `The ${WRITE_TOOLS.length} write tools carry requires_confirmation: true: have the person approve what a write will do before you make it; one approval covers the calls it named, so a scan needs one (below), not one per call.`,
    "To bind a read to one running app, call health, then pass identity.runtime_id as expected_runtime_id.",
    ...(readOnly ? [] : [SCAN_TEACHING]),
  ].join("\n");
}
