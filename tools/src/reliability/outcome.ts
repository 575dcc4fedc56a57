import type { Client } from "@modelcontextprotocol/client";
import { ERROR_CODES, type ErrorCode, TOOL_BY_NAME, type ToolName } from "@resmon/mcp-contract";

export type Outcome =
  | { kind: "success"; body: Record<string, unknown>; ms: number }
  | { kind: "error"; code: ErrorCode; body: Record<string, unknown>; ms: number }
  /** Not the success shape and not a contract envelope, or the call threw/hung. */
  | { kind: "bad"; why: string; ms: number };

function recordOrNull(value: unknown): Record<string, unknown> | null {
  return value && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/** Judge one tools/call answer against the contract: its output schema, or {error, message, detail}. */
export function judge(name: string, result: unknown, ms: number): Outcome {
  const r = recordOrNull(result);
  const content = Array.isArray(r?.content) ? (r?.content as unknown[]) : [];
  const first = recordOrNull(content[0]);
  if (!r || first?.type !== "text" || typeof first.text !== "string") {
    return { kind: "bad", why: "no text content", ms };
  }
  let body: Record<string, unknown> | null;
  try {
    body = recordOrNull(JSON.parse(first.text));
  } catch {
    return { kind: "bad", why: "text content is not JSON", ms };
  }
  if (!body) return { kind: "bad", why: "text content is not a JSON object", ms };
  if (r.isError === true) {
    const code = body.error;
    const keys = Object.keys(body).filter(
      (k) => !["error", "message", "detail", "tried", "no_port_named"].includes(k),
    );
    if (typeof code !== "string" || !(ERROR_CODES as readonly string[]).includes(code)) {
      return { kind: "bad", why: `error code ${JSON.stringify(code)} is not a contract code`, ms };
    }
    if (typeof body.message !== "string" || body.message.length === 0)
      return { kind: "bad", why: "no message", ms };
    if (!recordOrNull(body.detail)) return { kind: "bad", why: "detail is not an object", ms };
    if (keys.length > 0) return { kind: "bad", why: `envelope has extra keys ${keys.join(",")}`, ms };
    return { kind: "error", code: code as ErrorCode, body, ms };
  }
  if (!(name in TOOL_BY_NAME)) return { kind: "bad", why: `success for unknown tool ${name}`, ms };
  const def = TOOL_BY_NAME[name as ToolName];
  const checked = def.output.safeParse(body);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    return {
      kind: "bad",
      why: `success does not match output schema: ${issue?.message} at ${issue?.path.join(".")}`,
      ms,
    };
  }
  if (JSON.stringify(r.structuredContent) !== JSON.stringify(body)) {
    return { kind: "bad", why: "structuredContent differs from the text", ms };
  }
  return { kind: "success", body, ms };
}

/** One tools/call through the SDK client, with a hard per-call deadline (a hang is a failure). */
export async function callTool(
  client: Client,
  name: string,
  args: unknown,
  deadlineMs: number,
): Promise<Outcome> {
  const started = performance.now();
  try {
    const result = await client.callTool(
      { name, arguments: args as Record<string, unknown> },
      {
        timeout: deadlineMs,
        maxTotalTimeout: deadlineMs,
      },
    );
    return judge(name, result, performance.now() - started);
  } catch (err) {
    const ms = performance.now() - started;
    const text = err instanceof Error ? err.message : String(err);
    return {
      kind: "bad",
      why: /timed out|timeout/i.test(text)
        ? `no answer within ${deadlineMs} ms`
        : `call threw: ${text.slice(0, 200)}`,
      ms,
    };
  }
}

export function describe(o: Outcome): string {
  if (o.kind === "success") return "success";
  if (o.kind === "error") return `${o.code}: ${String(o.body.message).slice(0, 160)}`;
  return `BAD: ${o.why}`;
}
