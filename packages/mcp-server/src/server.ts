import type { Transport } from "@modelcontextprotocol/server";
import type { Discovery } from "@resmon/api-client";
import {
  type ErrorEnvelope,
  isListedReadOnly,
  isToolName,
  parseArguments,
  reportsProgress,
  TOOL_BY_NAME,
  type ToolArgs,
  type ToolDef,
  type ToolName,
  type ToolsListEntry,
  toolsListEntries,
} from "@resmon/mcp-contract";
import type { ScanEngine } from "@resmon/scan";
import { Backend, type CallBackend, type DiscoverFn } from "./backend/adapter.js";
import { requireTool } from "./backend/this-resmon.js";
import { type Config, readConfig, type Scope } from "./config.js";
import type { Answer, Ctx, Handler } from "./context.js";
import { withoutCredentialFields } from "./credential-fields.js";
import { backendUnavailable, boundEchoes, invalidArgument, toEnvelope } from "./errors.js";
import { HANDLERS } from "./handlers/index.js";
import type { ToolSide } from "./host.js";
import { log } from "./log.js";
import { type ProgressReport, progressReporter } from "./progress.js";
import { getPrompt, listPrompts } from "./prompts.js";
import { createScanResources, evidenceLinks, type ScanResources } from "./resources.js";
import { scanEngineFor } from "./scan.js";
import { scrubJson } from "./scrub.js";
import { type StdioStreams, serve } from "./serve.js";
import { sessionHost } from "./session-host.js";
import { withWriteOutcome } from "./write-outcome.js";

export interface ServerOptions {
  /** The environment to read RESMON_* from (default: process.env; config.ts parses it). */
  env?: Record<string, string | undefined>;
  /** Advertise output schemas in tools/list (default true; see README for the measured cost). */
  outputSchemas?: boolean;
  /** Total time one backend request may take (default RESMON_MCP_TIMEOUT_MS, else 30 s). */
  timeoutMs?: number;
  /** For tests: replace discovery. */
  discoverFn?: DiscoverFn;
}

export type ToolOutcome = { ok: true; answer: Answer } | { ok: false; error: ErrorEnvelope };

/** A page size above the ceiling was clamped by the row's schema; the answer says so rather than hiding it. */
function withClampNote(raw: unknown, args: Record<string, unknown>, answer: Answer): Answer {
  const asked = raw && typeof raw === "object" ? (raw as Record<string, unknown>).limit : undefined;
  if (typeof asked !== "number" || typeof args.limit !== "number" || asked <= args.limit) return answer;
  return { ...answer, limit_clamped: { asked, used: args.limit } };
}

/**
 * The registry is keyed by name, so each handler gets exactly its own tool's parsed arguments and
 * answers its own tool's typed result (checked against the row's output schema where resmon's data
 * flows into it: shape/answer.ts).
 */
function dispatch<N extends ToolName>(name: N, args: ToolArgs<N>, ctx: Ctx): Promise<Answer> {
  const handler: Handler<N> = HANDLERS[name];
  return handler(args, ctx);
}

/**
 * A variable set to a value this server cannot use refuses every call it governs, naming it, rather
 * than the call running on a default nobody chose (config.ts). Nothing has been sent to resmon.
 */
function refuseMisconfigured(config: Config, scope: Scope): void {
  const problem = config.problems.find((p) => p.scope === scope);
  if (problem === undefined) return;
  throw backendUnavailable(problem.message, [], false, {
    reason: "bad_configuration",
    variable: problem.variable,
  });
}

export interface ResmonTools {
  readonly readOnly: boolean;
  list(): ToolsListEntry[];
  /**
   * One call; its deadline counts from now, so time a call waited in the server's own queue is never
   * read as resmon's slowness. Answers are not scrubbed here: every frame is, once, on its way out.
   * `progress`: where the call reports how far it has come (the client asked for progress).
   */
  call(
    name: string,
    args: unknown,
    progress?: (report: ProgressReport) => void,
    signal?: AbortSignal,
  ): Promise<ToolOutcome>;
  /** A finished scan's evidence files as MCP resources (reads, so a read-only session has them). */
  readonly resources: ScanResources;
  close(): Promise<void>;
}

/** A call's outcome, and what gives back the room its large answers hold (backend/large-answers.ts). */
interface HeldOutcome {
  outcome: ToolOutcome;
  /** Once the answer has left (the session: its frame written); at once by a caller that writes none. */
  release: () => void;
}

/** The tools, unscrubbed: the server scrubs each frame it writes (serve.ts). */
function toolsFor(options: ServerOptions): ResmonTools & {
  callHeld(...args: Parameters<ResmonTools["call"]>): Promise<HeldOutcome>;
  probe(): Promise<Discovery>;
} {
  const config = readConfig(options.env);
  const { readOnly, maxBodyBytes } = config;
  const timeoutMs = options.timeoutMs ?? config.timeoutMs;
  const backend = new Backend({
    env: config.env,
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(maxBodyBytes !== undefined ? { maxBodyBytes } : {}),
    ...(options.discoverFn ? { discoverFn: options.discoverFn } : {}),
  });
  let scanEngine: Promise<ScanEngine> | undefined;
  const scan = async () => {
    refuseMisconfigured(config, "scan tools");
    scanEngine ??= scanEngineFor(config);
    return scanEngine;
  };
  // Built on first use (the first tools/list): the zod → JSON Schema conversion of every tool.
  let entries: ToolsListEntry[] | undefined;

  /** `sent` is told the call's record of its writes, once it has one; `signal` cancels the call. */
  async function run(
    name: string,
    raw: unknown,
    sent: (call: CallBackend) => void,
    progress?: (report: ProgressReport) => void,
    signal?: AbortSignal,
  ): Promise<Answer> {
    if (!isToolName(name)) {
      throw invalidArgument(`There is no tool named '${name}'.`, { field: "name", tool: name });
    }
    const def: ToolDef = TOOL_BY_NAME[name];
    // Read-only refusal comes before argument validation and before anything reaches the backend.
    if (readOnly && !isListedReadOnly(def)) {
      throw invalidArgument(
        `${name} changes resmon, and this server was started read-only (RESMON_MCP_READ_ONLY=1), so it refuses every write.`,
        { read_only: true },
      );
    }
    refuseMisconfigured(config, "every tool");
    // The row's own schema parses the arguments (the contract's parseArguments). One deadline for
    // the whole call, from when it starts: every request it makes shares RESMON_MCP_TIMEOUT_MS.
    const args = parseArguments(name, raw);
    const ctx: Ctx = { backend: backend.forCall(signal), scan, ...(progress ? { progress } : {}) };
    sent(ctx.backend);
    // A scan already under way answers its stored state whatever resmon is there now.
    if (name !== "scan_continue" && name !== "scan_verify") await requireTool(ctx.backend, def);
    return withClampNote(raw, args, await dispatch(name, args, ctx));
  }

  return {
    readOnly,
    resources: createScanResources(scan),
    list: () => {
      entries ??= toolsListEntries({ readOnly, outputSchemas: options.outputSchemas ?? true });
      return entries;
    },
    callHeld,
    probe: () => backend.probe(),
    async call(name, raw, progress, signal) {
      const { outcome, release } = await callHeld(name, raw, progress, signal);
      release();
      return outcome;
    },
    close: () => backend.close(),
  };

  /** One call, and what gives back the room of its large answers (the caller calls it). */
  async function callHeld(
    ...[name, raw, progress, signal]: Parameters<ResmonTools["call"]>
  ): Promise<HeldOutcome> {
    let backendOfCall: CallBackend | undefined;
    const release = () => backendOfCall?.letGo();
    try {
      const answer = await run(name, raw, (b) => (backendOfCall = b), progress, signal);
      return { outcome: { ok: true, answer: withoutCredentialFields(answer) }, release };
    } catch (err) {
      const error = boundEchoes(withoutCredentialFields(toEnvelope(err, name)));
      const outcome = withWriteOutcome(error, name, backendOfCall?.writes, signal?.aborted);
      // The protocol answers nothing to a cancelled call: a write it may have done is said on stderr.
      if (signal?.aborted && outcome.detail.outcome === "unknown")
        log(`${name} cancelled: ${outcome.message}`);
      return { outcome: { ok: false, error: outcome }, release };
    }
  }
}

/** A scan tool's answer that says the scan is complete links its evidence files (resources.ts). */
function withLinks(name: string, outcome: ToolOutcome): ToolOutcome & { links?: Record<string, unknown>[] } {
  if (!outcome.ok || !name.startsWith("scan_")) return outcome;
  const { phase, scan_id: scanId } = outcome.answer;
  return phase === "complete" && typeof scanId === "string"
    ? { ...outcome, links: evidenceLinks(scanId) }
    : outcome;
}

/** The tools for a caller that writes their outcomes itself (the demo, an embedder): each one scrubbed. */
export function createResmonTools(options: ServerOptions = {}): ResmonTools {
  const tools = toolsFor(options);
  return {
    ...tools,
    call: async (name, raw, progress, signal) => scrubJson(await tools.call(name, raw, progress, signal)),
  };
}

/** A session's tool side (session-host.ts): calls, prompts and resources, and the start-up probe's discovery. */
export function createToolSide(options: ServerOptions = {}): {
  side: ToolSide;
  tools: ResmonTools;
  probe(): Promise<Discovery>;
} {
  const tools = toolsFor(options);
  const side: ToolSide = {
    callTool: async (name, args, signal, notify) => {
      // Only the tools that report progress (the contract's PROGRESS_TOOLS) get a reporter.
      const reporter = notify && reportsProgress(name) ? progressReporter(notify) : undefined;
      try {
        const { outcome, release } = await tools.callHeld(name, args, reporter?.report, signal);
        // The session gives back the room once the answer's frame has left stdout (serve.ts).
        return { ...withLinks(name, outcome), release };
      } finally {
        // Never rejects (its sends are caught), so the release above always reaches the session.
        await reporter?.end(signal?.aborted === true);
      }
    },
    prompts: {
      list: () => listPrompts(tools.readOnly),
      get: (name, args) => getPrompt(tools.readOnly, name, args),
    },
    resources: tools.resources,
  };
  return { side, tools, probe: tools.probe };
}

export interface McpServerHandle {
  /** Serve one connection, in either protocol era, over `transport` (the bin: the SDK's StdioServerTransport). */
  serve(transport: Transport, streams?: StdioStreams): { close(): Promise<void> };
  close(): Promise<void>;
}

/**
 * The MCP server: tools from the contract table, handlers by name, one error funnel. Its `tools` are
 * not scrubbed (the session scrubs every frame it writes, once).
 */
export function createServer(options: ServerOptions = {}): { server: McpServerHandle; tools: ResmonTools } {
  const { side, tools } = createToolSide(options);
  const host = sessionHost(tools.readOnly, async () => side);
  // Output schemas left out (an option for a harness that counts tokens): listed as the contract lists them.
  if (options.outputSchemas === false)
    host.listTools = () => tools.list() as unknown as Record<string, unknown>[];
  const served: { close(): Promise<void> }[] = [];
  return {
    server: {
      serve: (transport, streams) => {
        const session = serve(host, transport, streams);
        served.push(session);
        return session;
      },
      close: async () => {
        for (const s of served.splice(0)) await s.close().catch(() => undefined);
        await tools.close();
      },
    },
    tools,
  };
}
