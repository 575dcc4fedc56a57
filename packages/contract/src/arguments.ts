import { ToolError } from "./errors.js";
import { TOOL_BY_NAME, type ToolArgs, type ToolName } from "./table.js";
import type { ToolDef } from "./types.js";

/**
 * zod's abortEarly (what its own validate() passes; the public ParseContext type omits it): stop at
 * the first issue, which is all a refusal names. Otherwise a reply of a million malformed rows, well
 * under the body ceiling, cost a million issues (3.4 GB RSS and 77 s were measured).
 */
export const FIRST_ISSUE_ONLY = { abortEarly: true } as Parameters<ToolDef["output"]["safeParse"]>[1];

function fieldOf(issue: { path: readonly PropertyKey[]; code?: string; keys?: readonly string[] }): string {
  if (issue.path.length > 0) return issue.path.map(String).join(".");
  if (issue.code === "unrecognized_keys" && issue.keys && issue.keys.length > 0) return issue.keys.join(", ");
  return "arguments";
}

/**
 * A tool call's arguments checked against its row: the parsed arguments (the row's types), or the
 * invalid_argument naming the field. The one validation of every tool's arguments, the scan's
 * included (the SDK's -32602 text is not the spec's error shape).
 */
export function parseArguments<N extends ToolName>(name: N, raw: unknown): ToolArgs<N> {
  const def: ToolDef = TOOL_BY_NAME[name];
  const input = raw ?? {};
  if (typeof input !== "object" || Array.isArray(input)) {
    throw new ToolError("invalid_argument", "arguments must be a JSON object.", { field: "arguments" });
  }
  // A row's own refusals (search_corpus: offset), by name, before its schema sees the arguments.
  for (const [field, why] of Object.entries(def.refuses ?? {})) {
    if (Object.hasOwn(input, field)) throw new ToolError("invalid_argument", why, { field });
  }
  const parsed = def.input.safeParse(input, FIRST_ISSUE_ONLY);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => ({ field: fieldOf(issue), message: issue.message }));
    const first = issues[0] ?? { field: "arguments", message: "invalid" };
    const firstIssue = parsed.error.issues[0];
    const missing =
      firstIssue?.code === "invalid_type" &&
      firstIssue.path.length === 1 &&
      (input as Record<string, unknown>)[String(firstIssue.path[0])] === undefined;
    const message =
      firstIssue?.code === "unrecognized_keys"
        ? `${def.name} takes no argument named ${first.field}.`
        : missing
          ? `Argument '${first.field}' is required.`
          : `Argument '${first.field}' is invalid: ${first.message}.`;
    throw new ToolError("invalid_argument", message, { field: first.field, issues });
  }
  return parsed.data as ToolArgs<N>;
}
