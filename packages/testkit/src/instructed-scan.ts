/**
 * A scripted model that knows the scan only from what the server tells every model: the lines of
 * its instructions that map a next_action to a call, and tools/list. Its judgements are
 * followScan's fixed ones (screenScores, rankedEntries); which tool answers each next_action, and
 * with which argument, it learns from the text. An action the text does not teach, or a tool or
 * argument tools/list does not list, stops it with an error: the instructions are what is tested.
 */
import { payloadItems, rankedEntries, screenScores, type ToolCall } from "./scripted-scan.js";

/** A tool as tools/list gives it (only what the model reads here). */
export interface ListedTool {
  name: string;
  inputSchema: { properties?: Record<string, unknown> };
}

/** What the instructions say to do for one next_action. */
export interface LearnedStep {
  tool?: string;
  /** The argument that carries the judgement (screen_scores, gap_queries, ranked_entries). */
  artifact?: string;
  /** "again, the same arguments": the start call sent again as it was. */
  resend?: true;
  /** "one of payload.options": the call is one of the options the answer lists. */
  fromOptions?: true;
}

/** One line per next_action, `action → call`, read from the instructions and checked against tools/list. */
export function learnSteps(instructions: string, tools: readonly ListedTool[]): Map<string, LearnedStep> {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const steps = new Map<string, LearnedStep>();
  for (const line of instructions.split("\n")) {
    const m = /^([a-z_]+) → (.+)$/.exec(line.trim());
    if (!m) continue;
    const [, action, call] = m as unknown as [string, string, string];
    if (/payload\.options/.test(call)) {
      steps.set(action, { fromOptions: true });
      continue;
    }
    const tool = byName.get(call.split(/[\s,(]/)[0] ?? "");
    if (!tool)
      throw new Error(`the instructions answer ${action} with a call tools/list does not list: ${call}`);
    const args = Object.keys(tool.inputSchema.properties ?? {}).filter((k) => k !== "scan_id");
    const artifact = (call.match(/\b[a-z]+_[a-z_]+\b/g) ?? []).find((w) => args.includes(w));
    steps.set(action, {
      tool: tool.name,
      ...(artifact ? { artifact } : {}),
      ...(/same arguments/.test(call) ? { resend: true as const } : {}),
    });
  }
  return steps;
}

/** One option of a choose_option answer: its call, and whether it needs the person. */
export interface ScanOption {
  option: string;
  tool: string;
  arguments?: Record<string, unknown> | null;
  needs_person?: boolean;
  [key: string]: unknown;
}

export interface InstructedOptions {
  /** Gap queries to send when asked (default []: skip the round). */
  gapQueries?: Record<string, unknown>[];
  /** Most calls before it counts as a loop (default 60). */
  maxCalls?: number;
  /** The person's pick among the options (default: the first one that needs no person). */
  choose?: (options: ScanOption[]) => ScanOption | undefined;
  onAnswer?: (
    name: string,
    args: Record<string, unknown>,
    answer: { ok: boolean; body: Record<string, unknown> },
  ) => void;
}

export interface InstructedResult {
  calls: { name: string; args: Record<string, unknown>; ok: boolean; body: Record<string, unknown> }[];
  final: Record<string, unknown>;
}

type Body = Record<string, unknown>;
const obj = (x: unknown): Body =>
  x !== null && typeof x === "object" && !Array.isArray(x) ? (x as Body) : {};

/**
 * Start the scan and do what each answer's next_action says, as the instructions teach it, until
 * complete (then its call, scan_result, is the last). A refusal's detail.next_action is followed
 * the same way. Throws when the text does not teach an action or the calls run out (a loop).
 */
export async function followInstructions(
  call: ToolCall,
  lesson: { instructions: string; tools: readonly ListedTool[] },
  startArgs: Record<string, unknown>,
  opts: InstructedOptions = {},
): Promise<InstructedResult> {
  const steps = learnSteps(lesson.instructions, lesson.tools);
  const startTool = lesson.tools.find((t) => /^scan_start$/.test(t.name))?.name;
  if (!startTool) throw new Error("tools/list lists no scan_start");
  const maxCalls = opts.maxCalls ?? 60;
  const calls: InstructedResult["calls"] = [];
  let scanId = String(startArgs.scan_id);
  let lastPayload: Body = {};
  const send = async (name: string, args: Record<string, unknown>) => {
    if (calls.length >= maxCalls) throw new Error(`the scan did not finish within ${maxCalls} calls`);
    const answer = await call(name, args);
    calls.push({ name, args, ...answer });
    opts.onAnswer?.(name, args, answer);
    return answer;
  };
  let answer = await send(startTool, startArgs);
  for (;;) {
    const body = answer.body;
    const detail = obj(body.detail);
    const action = String(answer.ok ? body.next_action : detail.next_action);
    if (!answer.ok && detail.next_action === undefined) {
      throw new Error(`a refusal with no next step: ${JSON.stringify(body).slice(0, 600)}`);
    }
    if (answer.ok) lastPayload = obj(body.payload);
    else if (Array.isArray(detail.options)) lastPayload = { ...lastPayload, options: detail.options };
    const step = steps.get(action);
    if (!step) throw new Error(`the instructions do not say what to do for next_action ${action}`);
    if (step.fromOptions) {
      const options = (Array.isArray(lastPayload.options) ? lastPayload.options : []) as ScanOption[];
      const pick = (opts.choose ?? ((o) => o.find((x) => x.needs_person !== true)))(options);
      if (!pick) throw new Error(`no option to take among ${JSON.stringify(options).slice(0, 400)}`);
      const args = { ...(pick.arguments ?? {}) };
      if (pick.tool === startTool) scanId = String(args.scan_id ?? scanId);
      answer = await send(pick.tool, args);
      continue;
    }
    const tool = step.tool as string;
    if (action === "complete") {
      const final = await send(tool, { scan_id: scanId });
      if (!final.ok) throw new Error(`${tool} failed: ${JSON.stringify(final.body).slice(0, 600)}`);
      return { calls, final: final.body };
    }
    if (step.resend) {
      answer = await send(tool, startArgs);
      continue;
    }
    const args: Record<string, unknown> = { scan_id: scanId };
    const envelope = { payload: lastPayload };
    if (step.artifact === "screen_scores") args.screen_scores = screenScores(payloadItems(envelope));
    else if (step.artifact === "gap_queries") args.gap_queries = opts.gapQueries ?? [];
    else if (step.artifact === "ranked_entries") {
      const progressRanked = obj(body.progress).ranked;
      const already = typeof progressRanked === "number" ? progressRanked : 0;
      args.ranked_entries = rankedEntries(payloadItems(envelope), already + 1);
    } else if (step.artifact) throw new Error(`no judgement for ${step.artifact}`);
    answer = await send(tool, args);
  }
}
