import type { Handler } from "../context.js";
import { reportedIdentity, requireIdentity } from "../shape/identity.js";
import { asArray, asRecord, parseJsonText } from "../shape/values.js";

/** The row whole, except the unbounded event log: its last event and its length instead. */
export function executionAnswer(body: unknown): Record<string, unknown> {
  const { progress_events: raw, identity: _identity, ...row } = asRecord(body);
  const events = asArray(parseJsonText(raw));
  // parameters is JSON text in the row (default_starts lives inside it): hand it over as an object.
  if (typeof row.parameters === "string") {
    const parsed = parseJsonText(row.parameters);
    if (parsed && typeof parsed === "object") row.parameters = parsed;
  }
  return {
    ...row,
    ...reportedIdentity(asRecord(body)),
    last_event: events.length > 0 ? events[events.length - 1] : null,
    event_count: events.length,
  };
}

export const get_execution: Handler<"get_execution"> = async (args, { backend }) => {
  const execId = args.exec_id;
  const expected = args.expected_runtime_id;
  if (expected === undefined) {
    const body = await backend.call((c) =>
      c.GET("/api/executions/{exec_id}", { params: { path: { exec_id: execId } } }),
    );
    return executionAnswer(body);
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
  return executionAnswer(body);
};
