/** One of the contract's error codes. */
export type ScanErrorCode =
  | "invalid_argument"
  | "not_found"
  | "conflict"
  | "upstream_error"
  | "backend_unavailable"
  | "internal_error"
  | "instance_mismatch"
  | "identity_unavailable";

/** Thrown for every refusal in the design's table; the MCP glue turns it into {error, message, detail}. */
export class ScanError extends Error {
  constructor(
    readonly code: ScanErrorCode,
    message: string,
    readonly detail: Record<string, unknown> = {},
    /** The server's own refusal this one carries on (a request's failure, with the scan's stage added). */
    override readonly cause?: unknown,
  ) {
    super(message);
    this.name = "ScanError";
  }
}

export function invalidArgument(
  field: string,
  message: string,
  extra: Record<string, unknown> = {},
): ScanError {
  return new ScanError("invalid_argument", message, { field, ...extra });
}

/**
 * The scan's own files could not be used (a full disk, a read-only or foreign directory, a corrupt
 * or oversized scan.json): said with what and where, relative to the scans directory. Whatever was
 * on disk before is left as it was, and nothing was sent to resmon after it.
 */
export function storageRefusal(problem: string, path: string, message: string): ScanError {
  return new ScanError("internal_error", message, { reason: "storage", problem, path });
}
