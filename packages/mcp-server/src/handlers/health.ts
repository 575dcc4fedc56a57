import type { Handler } from "../context.js";
import { answerOf } from "../shape/answer.js";
import { reportedIdentity, requireIdentity } from "../shape/identity.js";
import { markNotReported, passReported } from "../shape/reported.js";
import { asRecord, numOrNull } from "../shape/values.js";

/** Health as resmon reports it. An unbound call passes on whatever identity resmon reported, and no other. */
export function healthAnswer(body: unknown): Record<string, unknown> {
  const b = asRecord(body);
  const answer: Record<string, unknown> = {
    ...(Object.hasOwn(b, "status") ? { status: b.status } : {}),
    // Required by the output schema: without it the answer is refused (upstream_error), not null.
    version: b.version,
    schema_version: numOrNull(asRecord(b.identity).schema_version) ?? numOrNull(b.schema_version),
    ...reportedIdentity(b),
  };
  // Passed on only when resmon reported them: a scheduler state it did not send is not null, it is unknown.
  passReported(answer, b, ["scheduler", "daemon"]);
  if (!Object.hasOwn(b, "status")) markNotReported(answer, ["status"]);
  for (const key of ["pid", "started_at", "embeddings"]) {
    if (key in b) answer[key] = b[key];
  }
  return answer;
}

export const health: Handler<"health"> = async (args, { backend }) => {
  const expected = args.expected_runtime_id;
  const body = await backend.call(
    (c) =>
      expected === undefined
        ? c.GET("/api/health")
        : c.GET("/api/health", { params: { query: { expected_runtime_id: expected } } }),
    expected === undefined ? {} : { expectedRuntimeId: expected },
  );
  if (expected !== undefined) requireIdentity(body, expected, "health");
  return answerOf("health", healthAnswer(body));
};
