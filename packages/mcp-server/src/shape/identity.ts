import { parseIdentity } from "@resmon/api-client";
import { ToolError } from "../errors.js";

/**
 * Check a bound answer's identity. Missing, malformed or unsupported → identity_unavailable;
 * a different runtime → instance_mismatch. Either way the answer's content is discarded.
 */
export function requireIdentity(body: unknown, expectedRuntimeId: string, what: string): void {
  const result = parseIdentity(body);
  if (!result.ok) {
    throw new ToolError(
      "identity_unavailable",
      `resmon's ${what} answer did not report an identity this server can check (${result.problem}), so it cannot confirm the expected instance answered. The answer was not used.`,
      { problem: result.problem, expected_runtime_id: expectedRuntimeId },
    );
  }
  if (result.identity.runtime_id !== expectedRuntimeId) {
    throw new ToolError(
      "instance_mismatch",
      "This call reached a different running resmon than the one expected, so its answer was not used.",
      { expected_runtime_id: expectedRuntimeId, actual_runtime_id: result.identity.runtime_id },
    );
  }
}

/**
 * An unbound answer carries the identity resmon reported when it is one this server can read; an
 * identity it cannot read is left out and named as such, never repaired or invented.
 */
export function reportedIdentity(body: Record<string, unknown>): Record<string, unknown> {
  if (!("identity" in body)) return {};
  const result = parseIdentity(body);
  return result.ok ? { identity: body.identity } : { identity_problem: result.problem };
}
