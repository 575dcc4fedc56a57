import { ToolError } from "@resmon/mcp-contract";

/** invalid_argument naming `field`: a check the contract's row cannot express (duplicates, blank text, list caps). */
export function invalidArgument(
  field: string,
  message: string,
  extra: Record<string, unknown> = {},
): ToolError {
  return new ToolError("invalid_argument", message, { field, ...extra });
}

/**
 * The scan's own files could not be used (a full disk, a read-only or foreign directory, a corrupt
 * or oversized scan.json): said with what and where, relative to the scans directory. Whatever was
 * on disk before is left as it was, and nothing was sent to resmon after it.
 */
export function storageRefusal(problem: string, path: string, message: string): ToolError {
  return new ToolError("internal_error", message, { reason: "storage", problem, path });
}

/** A refusal carried on with the scan's stage added to its detail (a failed request, a version gap). */
export function atStage(error: ToolError, stage: string): ToolError {
  return new ToolError(error.code, error.message, { ...error.detail, stage }, error.unavailable);
}

/** The HTTP status resmon answered with, when the refusal came from one. */
export function statusOf(error: ToolError): number | undefined {
  const s = error.detail.status;
  return typeof s === "number" ? s : undefined;
}
