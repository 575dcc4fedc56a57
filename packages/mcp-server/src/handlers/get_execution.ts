import { FEATURE_KEYS, type ResmonFeature } from "@resmon/mcp-contract";
import type { ThisResmon } from "../backend/this-resmon.js";
import type { Handler } from "../context.js";
import { answerOf, notCarried } from "../shape/answer.js";
import { reportedIdentity, requireIdentity } from "../shape/identity.js";
import { markNotReported } from "../shape/reported.js";
import { asRecord, parseJsonText } from "../shape/values.js";

/**
 * What the spec promises on a run that the row may not carry. resmon's 2.3 row has no AI lane, so
 * the answer says it was not reported rather than leaving a reader to guess the run had none.
 */
const PROMISED = ["ai_lane"] as const;

/**
 * What a resmon before 2.3 does not record on a run (its lineage; which sources answered it): not
 * reported there, never null or absent without a word; on 2.3 and later every run carries them.
 * The contract's FEATURE_KEYS names them (".coverage" -> "coverage").
 */
const RECORDED_SINCE = Object.entries(FEATURE_KEYS).flatMap(([feature, byTool]) => {
  const paths = byTool?.get_execution;
  return paths ? [[feature as ResmonFeature, paths.map((p) => p.slice(1))] as const] : [];
});

/** The row whole, except the unbounded event log: its last event and its length instead. */
export function executionAnswer(
  body: unknown,
  recorded: (feature: ResmonFeature) => boolean = () => true,
): Record<string, unknown> {
  const { progress_events: raw, identity: _identity, ...row } = asRecord(body);
  // parameters is JSON text in the row (default_starts lives inside it): hand it over as an object.
  if (typeof row.parameters === "string") {
    const parsed = parseJsonText(row.parameters);
    if (parsed && typeof parsed === "object") row.parameters = parsed;
  }
  const answer: Record<string, unknown> = { ...row, ...reportedIdentity(asRecord(body)) };
  const missing: string[] = PROMISED.filter((key) => !Object.hasOwn(row, key));
  for (const [feature, keys] of RECORDED_SINCE) {
    const absent = keys.filter((key) => !Object.hasOwn(row, key));
    if (!recorded(feature)) missing.push(...absent);
    // A resmon that records it on every run and did not send it: not passed on as "not reported".
    else if (absent[0] !== undefined) throw notCarried("get_execution", absent[0], "Required");
  }
  // An event log resmon did not send (or sent unreadable) is not an empty one.
  const events = parseJsonText(raw);
  if (Array.isArray(events)) {
    answer.last_event = events.length > 0 ? events[events.length - 1] : null;
    answer.event_count = events.length;
  } else missing.push("last_event", "event_count");
  markNotReported(answer, missing);
  return answer;
}

async function recordedBy(backend: { resmon(): Promise<ThisResmon> }) {
  const resmon = await backend.resmon();
  return (feature: ResmonFeature) => resmon.has(feature);
}

export const get_execution: Handler<"get_execution"> = async (args, { backend }) => {
  const execId = args.exec_id;
  const expected = args.expected_runtime_id;
  if (expected === undefined) {
    const body = await backend.call((c) =>
      c.GET("/api/executions/{exec_id}", { params: { path: { exec_id: execId } } }),
    );
    return answerOf("get_execution", executionAnswer(body, await recordedBy(backend)));
  }
  // Preflight: health with the expectation must match before the execution is asked for at all.
  const bound = { expectedRuntimeId: expected };
  const query = { expected_runtime_id: expected };
  const healthBody = await backend.call((c) => c.GET("/api/health", { params: { query } }), bound);
  requireIdentity(healthBody, expected, "health");
  const body = await backend.call(
    (c) => c.GET("/api/executions/{exec_id}", { params: { path: { exec_id: execId }, query } }),
    bound,
  );
  requireIdentity(body, expected, "execution");
  return answerOf("get_execution", executionAnswer(body, await recordedBy(backend)));
};
