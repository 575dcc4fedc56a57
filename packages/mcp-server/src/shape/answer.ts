import { FIRST_ISSUE_ONLY, TOOL_BY_NAME, type ToolName, type ToolResult } from "@resmon/mcp-contract";
import { ToolError } from "../errors.js";
import { log } from "../log.js";

/**
 * The one check of an answer built from resmon's data against its row's output schema, which makes
 * it the tool's typed result. Handlers pass resmon's fields on, so a missing or ill-typed field is
 * nearly always resmon's answer lacking what the tool promises: upstream_error naming the field,
 * never a half answer. The value itself is returned, unchanged (key order included).
 */
export function answerOf<N extends ToolName>(name: N, value: Record<string, unknown>): ToolResult<N> {
  const checked = TOOL_BY_NAME[name].output.safeParse(value, FIRST_ISSUE_ONLY);
  if (checked.success) return value as ToolResult<N>;
  const issue = checked.error.issues[0];
  const field = issue?.path.join(".") ?? "";
  throw notCarried(name, field, issue?.message ?? "invalid");
}

/** upstream_error: resmon's answer lacks what the tool promises (at `field`, when one is named). */
export function notCarried(name: ToolName, field: string, why: string): ToolError {
  log(`${name}: resmon's answer did not carry what it promises: ${why} at ${field}`);
  return new ToolError(
    "upstream_error",
    `resmon's answer did not carry what ${name} promises${field ? ` (${field}: ${why})` : ""}, so it was not passed on.`,
    field ? { field } : {},
  );
}
