/**
 * Every request's params checked against the MCP schema of its method before its handler runs, so
 * wrong types answer -32602 naming the field, on every method the server serves (ours and the
 * SDK's own initialize, ping and server/discover). The SDK 2.4 checks them too, but a spec method's
 * failure leaves its dispatch as a bare Error, answered -32603 with the zod issues as JSON
 * (typescript-sdk issue #2284). Also here: a progressToken is echoed in every progress
 * notification, so one longer than MAX_PROGRESS_TOKEN is refused rather than repeated.
 */
import {
  INVALID_PARAMS,
  type JSONRPCRequest,
  ProtocolError,
  type Result,
  Server,
  type ServerContext,
  type SpecTypeName,
  specTypeSchemas,
} from "@modelcontextprotocol/server";
import { isPlain } from "./json.js";

/** The longest progressToken taken (a string; an integer is short by nature). */
export const MAX_PROGRESS_TOKEN = 256;

/** The most of a field's path, and of the issues, a refusal names. */
const MAX_PATH_CHARS = 120;
const MAX_ISSUES = 3;

/** The spec's request schema of each method this server answers. */
const REQUEST_SCHEMA: Readonly<Record<string, SpecTypeName>> = {
  initialize: "InitializeRequest",
  ping: "PingRequest",
  "server/discover": "DiscoverRequest",
  "tools/list": "ListToolsRequest",
  "tools/call": "CallToolRequest",
  "prompts/list": "ListPromptsRequest",
  "prompts/get": "GetPromptRequest",
  "resources/list": "ListResourcesRequest",
  "resources/templates/list": "ListResourceTemplatesRequest",
  "resources/read": "ReadResourceRequest",
};

interface Issue {
  path?: readonly (PropertyKey | { key: PropertyKey })[];
  message: string;
}

/** `params.arguments.question`, each key cut short, so a huge key never comes back whole. */
function fieldOf(issue: Issue): string {
  const path = (issue.path ?? []).map((p) => String(typeof p === "object" ? p.key : p).slice(0, 40));
  const field = path.join(".") || "params";
  return field.length > MAX_PATH_CHARS ? `${field.slice(0, MAX_PATH_CHARS)}…` : field;
}

/** What is wrong with a request's params, as -32602 says it; undefined when nothing is. */
export function paramsProblem(
  method: string,
  request: unknown,
): { message: string; data: { field: string } } | undefined {
  const name = REQUEST_SCHEMA[method];
  if (name !== undefined) {
    const checked = specTypeSchemas[name]["~standard"].validate(request);
    // The spec schemas are synchronous (no async refinements).
    const issues = checked instanceof Promise ? undefined : (checked.issues as readonly Issue[] | undefined);
    if (issues && issues.length > 0) {
      const said = issues.slice(0, MAX_ISSUES).map((i) => `${fieldOf(i)}: ${i.message}`);
      if (issues.length > MAX_ISSUES) said.push(`and ${issues.length - MAX_ISSUES} more`);
      return {
        message: `Invalid params for ${method}: ${said.join("; ")}.`,
        data: { field: fieldOf(issues[0] as Issue) },
      };
    }
  }
  const params = isPlain(request) && isPlain(request.params) ? request.params : undefined;
  const token = params && isPlain(params._meta) ? params._meta.progressToken : undefined;
  if (typeof token === "string" && token.length > MAX_PROGRESS_TOKEN) {
    return {
      message: `Invalid params for ${method}: params._meta.progressToken is ${token.length} characters; at most ${MAX_PROGRESS_TOKEN} are taken, since every progress notification repeats it.`,
      data: { field: "params._meta.progressToken" },
    };
  }
  return undefined;
}

/** The SDK's Server, every request handler behind the params check (the SDK's hook for a role's own validation). */
type Handler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

export class CheckedServer extends Server {
  protected override _wrapHandler(method: string, handler: Handler): Handler {
    const inner = super._wrapHandler(method, handler);
    return async (request, ctx) => {
      const problem = paramsProblem(method, request);
      if (problem) throw new ProtocolError(INVALID_PARAMS, problem.message, problem.data);
      return inner(request, ctx);
    };
  }
}
