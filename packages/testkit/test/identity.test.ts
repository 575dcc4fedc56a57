import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Testkit } from "../src/index.js";
import { call, obj, sleep, startKit } from "./helpers.js";

const OTHER = "11111111-2222-4333-8444-555555555555";

describe("health and identity", () => {
  let kit: Testkit;
  let done: () => Promise<void>;
  beforeAll(async () => {
    ({ kit, done } = await startKit());
  });
  afterAll(async () => done());

  it("health carries status, pid, started_at, version, embeddings and the identity", async () => {
    kit.setIdentityMode("normal");
    const body = obj((await call(kit, "GET", "/api/health")).json);
    for (const k of [
      "status",
      "pid",
      "started_at",
      "version",
      "embeddings",
      "identity",
      "scheduler",
      "daemon",
    ])
      expect(body).toHaveProperty(k);
    expect(body.identity).toEqual({
      contract_version: 1,
      runtime_id: kit.runtimeId,
      schema_version: 21,
      corpus_id: null,
      build_id: null,
    });
    expect(kit.runtimeId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("expected_runtime_id: 422 malformed or empty, 409 different, 200 matching", async () => {
    kit.setIdentityMode("normal");
    for (const bad of ["BAD", "", kit.runtimeId.toUpperCase()]) {
      expect((await call(kit, "GET", `/api/health?expected_runtime_id=${bad}`)).status).toBe(422);
    }
    const mismatch = await call(kit, "GET", `/api/health?expected_runtime_id=${OTHER}`);
    expect(mismatch.status).toBe(409);
    expect(obj(mismatch.json).detail).toEqual({
      code: "instance_mismatch",
      message: "This request reached a different running app.",
      expected_runtime_id: OTHER,
      actual_runtime_id: kit.runtimeId,
    });
    expect((await call(kit, "GET", `/api/health?expected_runtime_id=${kit.runtimeId}`)).status).toBe(200);
  });

  it("on an execution: mismatch wins over a missing execution; matching id with no execution is 404", async () => {
    expect((await call(kit, "GET", `/api/executions/999?expected_runtime_id=${OTHER}`)).status).toBe(409);
    expect((await call(kit, "GET", `/api/executions/999?expected_runtime_id=${kit.runtimeId}`)).status).toBe(
      404,
    );
    const matched = await call(kit, "GET", `/api/executions/1?expected_runtime_id=${kit.runtimeId}`);
    expect(matched.status).toBe(200);
    expect(obj(obj(matched.json).identity).runtime_id).toBe(kit.runtimeId);
    expect((await call(kit, "GET", "/api/executions/1?expected_runtime_id=BAD")).status).toBe(422);
  });

  it("serves a missing, malformed, unsupported or schema-less identity when switched", async () => {
    kit.setIdentityMode("missing");
    expect(obj((await call(kit, "GET", "/api/health")).json)).not.toHaveProperty("identity");
    expect(obj((await call(kit, "GET", "/api/executions/1")).json)).not.toHaveProperty("identity");
    kit.setIdentityMode("malformed");
    expect(obj(obj((await call(kit, "GET", "/api/health")).json).identity).runtime_id).toBe(
      "not-a-runtime-id",
    );
    kit.setIdentityMode("unsupported");
    expect(obj(obj((await call(kit, "GET", "/api/health")).json).identity).contract_version).toBe(2);
    kit.setIdentityMode("null_schema");
    expect(obj(obj((await call(kit, "GET", "/api/executions/1")).json).identity).schema_version).toBeNull();
    kit.setIdentityMode("normal");
  });

  it("a restart mints a new runtime id, and running work ends interrupted by the restart", async () => {
    kit.setAdmission({ runDurationMs: 60_000 });
    const sweep = obj(
      (await call(kit, "POST", "/api/search/sweep", { query: "graph", repositories: ["arxiv"] })).json,
    );
    const before = kit.runtimeId;
    await kit.restart();
    await sleep(50); // let the client notice its pooled connection to the old process is gone
    expect(kit.runtimeId).not.toBe(before);
    const e = obj((await call(kit, "GET", `/api/executions/${String(sweep.execution_id)}`)).json);
    expect(e.status).toBe("interrupted");
    expect(e.interrupted_reason).toBe("daemon_restart");
    expect(e.owner_runtime_id).toBe(before);
    kit.setAdmission({ runDurationMs: 1500 });
  });
});
