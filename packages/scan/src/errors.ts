/** One of the contract's error codes. */
export type ScanErrorCode =
  | "invalid_argument"
  | "not_found"
  | "conflict"
  | "upstream_error"
  | "backend_unavailable"
  | "internal_error";

/** Thrown for every refusal in the design's table; the MCP glue turns it into {error, message, detail}. */
export class ScanError extends Error {
  constructor(
    readonly code: ScanErrorCode,
    message: string,
    readonly detail: Record<string, unknown> = {},
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
