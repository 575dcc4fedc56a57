/** The spec's error codes; the last two only for a call that names an expected runtime. */
export const ERROR_CODES = [
  "backend_unavailable",
  "not_found",
  "invalid_argument",
  "conflict",
  "upstream_error",
  "internal_error",
  "instance_mismatch",
  "identity_unavailable",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** What every failing tool call answers instead of its success shape. */
export interface ErrorEnvelope {
  error: ErrorCode;
  /** Written for a person. Never a credential value, never more than the backend reported. */
  message: string;
  detail: Record<string, unknown>;
  /** backend_unavailable only: the base URLs tried ([] when nothing named a port). */
  tried?: string[];
  /** backend_unavailable only: true when neither RESMON_PORT nor a port file named a port. */
  no_port_named?: boolean;
}

export function isErrorCode(x: string): x is ErrorCode {
  return (ERROR_CODES as readonly string[]).includes(x);
}

/**
 * The one error class of the tool surface. Every refusal the server, its backend adapter or the scan
 * engine raises is a ToolError; the server's funnel turns it into the `ErrorEnvelope` above.
 */
export class ToolError extends Error {
  readonly code: ErrorCode;
  readonly detail: Record<string, unknown>;
  /** Only on backend_unavailable: the URLs tried and whether anything named a port at all. */
  readonly unavailable?: { tried: string[]; noPortNamed: boolean };

  constructor(
    code: ErrorCode,
    message: string,
    detail: Record<string, unknown> = {},
    unavailable?: { tried: string[]; noPortNamed: boolean },
  ) {
    super(message);
    this.name = "ToolError";
    this.code = code;
    this.detail = detail;
    if (unavailable) this.unavailable = unavailable;
  }
}

/**
 * A call this resmon cannot answer because it is older than what the call needs (contract 1.2):
 * never `not_found` (the route is absent, not the item) and never the caller's mistake. The code is
 * `conflict` — the request is sound, the installed app is not yet the one that serves it — with
 * `detail.reason: "not_in_this_resmon"`, the version resmon reported (null when it said none),
 * the first resmon line that has it (`needs`), and the route or feature it lacks.
 */
export const VERSION_GAP_CODE = "conflict" satisfies ErrorCode;

export interface VersionGapDetail {
  reason: "not_in_this_resmon";
  resmon_version: string | null;
  needs: string;
  route?: string;
  feature?: string;
}
