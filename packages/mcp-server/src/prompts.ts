import { PROMPT_BY_NAME, PROMPTS, renderPrompt } from "@resmon/mcp-contract";
import type { Refused } from "./host.js";

/**
 * The MCP prompts, from the contract (prompts.ts there): listed and rendered with their arguments.
 * Every prompt drives a scan, whose tools are writes, so a read-only session offers none.
 */
export function listPrompts(readOnly: boolean): Record<string, unknown>[] {
  if (readOnly) return [];
  return PROMPTS.map((p) => ({
    name: p.name,
    title: p.title,
    description: p.description,
    arguments: p.arguments.map((a) => ({ name: a.name, description: a.description, required: a.required })),
  }));
}

function refused(error: "invalid_argument", message: string, detail: Record<string, unknown>): Refused {
  return { refused: { message, data: { error, message, detail } } };
}

export function getPrompt(
  readOnly: boolean,
  name: string,
  args: Record<string, string> | undefined,
): Record<string, unknown> | Refused {
  const def = PROMPT_BY_NAME[name];
  if (!def) {
    const names = PROMPTS.map((p) => p.name).join(", ");
    return refused(
      "invalid_argument",
      `There is no prompt named ${JSON.stringify(name.slice(0, 80))}; this server has ${names}.`,
      {
        field: "name",
      },
    );
  }
  if (readOnly) {
    return refused(
      "invalid_argument",
      `${name} drives a scan, whose tools are writes, and this server was started read-only (RESMON_MCP_READ_ONLY=1).`,
      { field: "name", read_only: true },
    );
  }
  const rendered = renderPrompt(def, args ?? {});
  if (!rendered.ok) return refused("invalid_argument", rendered.message, { field: rendered.field });
  return {
    description: rendered.description,
    messages: [{ role: "user", content: { type: "text", text: rendered.text } }],
  };
}
