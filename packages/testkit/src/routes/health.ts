import type { Backend } from "../backend.js";
import type { JsonObject } from "../model.js";
import { type Ctx, detail, ok, queryValue, type Reply, type Routes } from "../reply.js";

const UUID4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** `expected_runtime_id`, checked before any other work: 422 malformed, 409 different, null when it matches or is absent. */
export function checkExpectedRuntime(ctx: Ctx): Reply | null {
  if (!("expected_runtime_id" in ctx.query)) return null;
  const expected = queryValue(ctx.query, "expected_runtime_id") ?? "";
  if (!UUID4.test(expected)) return detail(422, "expected_runtime_id must be a canonical lowercase UUID4");
  if (expected !== ctx.backend.runtimeId) {
    return detail(409, {
      code: "instance_mismatch",
      message: "This request reached a different running app.",
      expected_runtime_id: expected,
      actual_runtime_id: ctx.backend.runtimeId,
    });
  }
  return null;
}

function embeddings(backend: Backend): JsonObject {
  if (backend.embeddingState === "extension_unavailable") {
    return { extension: null, reason: "The sqlite-vec extension could not be loaded in this backend." };
  }
  return { extension: "sqlite-vec (testkit)", reason: null };
}

export function healthAnswer(ctx: Ctx): Reply {
  const b = ctx.backend;
  // The public 1.6/1.7 health took no parameters (an unknown query is ignored) and had no identity.
  if (b.publicHealth)
    return ok({ status: "ok", pid: process.pid, started_at: b.startedAt, version: b.version });
  const refused = checkExpectedRuntime(ctx);
  if (refused) return refused;
  const body: JsonObject = { status: "ok" };
  const identity = b.identity();
  if (identity !== undefined) body.identity = identity;
  body.pid = process.pid;
  body.started_at = b.startedAt;
  body.version = b.version;
  body.embeddings = embeddings(b);
  // The spec's health tool reports scheduler and daemon state; the captured 2.3 health does not carry them.
  body.scheduler = {
    running: true,
    jobs: [...b.store.routines.values()].filter((r) => r.is_active).length,
    active_executions: b.active.size,
    queued_fires: b.queue.length,
  };
  body.daemon = { installed: false, state: "not_installed" };
  return ok(body);
}

/** Health, with the instance check. */
export const health: Routes = {
  "GET /api/health": healthAnswer,
};
