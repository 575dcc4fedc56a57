/**
 * Wrong params answered -32602 naming the field, in words. The SDK checks every request against its
 * method's schema, but 2.4 answers a spec method's failure -32603 and a tools/call's -32602, each with
 * the schema library's issues as JSON for a message (typescript-sdk #2284; the unreleased PR #2492
 * makes the first -32602). Its own failure is said again here: no request is checked twice. Also
 * here: a progressToken is echoed in every progress notification, so a long one is refused.
 */
import {
  INVALID_PARAMS,
  type JSONRPCRequest,
  ProtocolError,
  type Result,
  Server,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { isPlain } from "./json.js";

/** The longest progressToken taken (a string; an integer is short by nature). */
export const MAX_PROGRESS_TOKEN = 256;

type Issue = { path: readonly PropertyKey[]; message: string };
/** `params.arguments.question`, each key and the whole cut short, so a huge key never comes back whole. */
const fieldOf = (issue: Issue) => {
  const field = issue.path.map((key) => String(key).slice(0, 40)).join(".");
  return field.length > 120 ? `${field.slice(0, 120)}…` : field;
};

/** The -32602 the schema library's `issues` draw when each is in the params, else undefined. */
export function paramsProblem(method: string, issues: readonly unknown[]) {
  const inParams = (i: unknown): i is Issue => isPlain(i) && Array.isArray(i.path) && i.path[0] === "params";
  if (issues.length === 0 || !issues.every(inParams)) return undefined;
  const said = issues.slice(0, 3).map((i) => `${fieldOf(i)}: ${i.message}`);
  if (issues.length > 3) said.push(`and ${issues.length - 3} more`);
  const data = { field: fieldOf(issues[0] as Issue) };
  return { message: `Invalid params for ${method.slice(0, 60)}: ${said.join("; ")}.`, data };
}

/** The issues an SDK failure's message holds as JSON (from its first "["), or none. */
function issuesIn(error: unknown): unknown[] {
  if (error instanceof ProtocolError && error.code !== INVALID_PARAMS) return [];
  const text = error instanceof Error ? error.message : "";
  try {
    const issues: unknown = text.includes("[") ? JSON.parse(text.slice(text.indexOf("["))) : [];
    return Array.isArray(issues) ? issues : [];
  } catch {
    return [];
  }
}

type Handler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

/** The SDK's Server, every request handler wrapped (the SDK's hook for a role's own validation). */
export class CheckedServer extends Server {
  protected override _wrapHandler(method: string, handler: Handler): Handler {
    const inner = super._wrapHandler(method, handler);
    return async (request, ctx) => {
      const token = ctx.mcpReq._meta?.progressToken;
      if (typeof token === "string" && token.length > MAX_PROGRESS_TOKEN) {
        const message = `Invalid params for ${method}: params._meta.progressToken is ${token.length} characters; at most ${MAX_PROGRESS_TOKEN} are taken, since every progress notification repeats it.`;
        throw new ProtocolError(INVALID_PARAMS, message, { field: "params._meta.progressToken" });
      }
      try {
        return await inner(request, ctx);
      } catch (error) {
        const problem = paramsProblem(method, issuesIn(error));
        throw problem ? new ProtocolError(INVALID_PARAMS, problem.message, problem.data) : error;
      }
    };
  }
}
