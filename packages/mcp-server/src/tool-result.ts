/**
 * A tool call's outcome as the MCP tool result the session sends: its JSON as text (with
 * resource_link blocks after it: a finished scan's evidence), and structuredContent (SDK clients
 * check it against the output schema) only on success.
 */
import type { Outcome } from "./host.js";
import type { Json } from "./json.js";

export type ToolResult = { content: Json[]; structuredContent?: Json; isError?: true };

export function toolResult(outcome: Outcome): ToolResult {
  const text = JSON.stringify(outcome.ok ? outcome.answer : outcome.error);
  const content = [{ type: "text", text }, ...(outcome.ok ? (outcome.links ?? []) : [])];
  return outcome.ok ? { content, structuredContent: outcome.answer } : { content, isError: true };
}
