import { describe, expect, it } from "vitest";
import { type FakeReply, RUN_RECORD_23, type SeenRequest } from "./helpers/fake-backend.js";
import { useFakeSession } from "./helpers/fake-session.js";

const RUNTIME = "a557b1b5-0382-4f28-a866-3d5bb2700f73";
const OTHER = "11111111-2222-4333-8444-555555555555";
const identity = (runtime_id: string) => ({
  contract_version: 1,
  runtime_id,
  schema_version: 21,
  corpus_id: null,
  build_id: null,
});

/** Each test sets `reply`; the fake backend answers every request with it. */
let reply: (req: SeenRequest) => FakeReply = () => ({ status: 200, body: {} });
const { fake, call } = useFakeSession((req) => reply(req));

describe("a page size above the ceiling", () => {
  it("is clamped to 100, sent as 100, and the answer says so", async () => {
    reply = () => ({ status: 200, body: [] });
    const { error, body } = await call("list_executions", { limit: 5000 });
    expect(error).toBe(false);
    expect(body).toMatchObject({ limit: 100, limit_clamped: { asked: 5000, used: 100 } });
    expect(fake.seen.map((r) => r.query.limit)).toEqual([101]);
  });

  it("within the ceiling carries no clamp note", async () => {
    reply = () => ({ status: 200, body: [] });
    const { body } = await call("list_executions", { limit: 100 });
    expect(body).not.toHaveProperty("limit_clamped");
  });
});

describe("argument validation happens here, before any request", () => {
  it.each([
    ["search_corpus", {}, "query"],
    ["search_corpus", { query: "x", limit: 0 }, "limit"],
    ["search_corpus", { query: "x", mode: "fuzzy" }, "mode"],
    ["get_routine", { routine_id: "one" }, "routine_id"],
    ["list_executions", { status: "exploded" }, "status"],
    ["update_settings", { group: "cloud", settings: { a: "b" } }, "group"],
    ["get_analytics", { view: "everything" }, "view"],
    // What tools/list leaves to the server (contract tools-list.ts): bounds of 0 or 1, worded patterns.
    ["search_corpus", { query: "" }, "query"],
    ["get_routine", { routine_id: 0 }, "routine_id"],
    ["list_executions", { offset: -1 }, "offset"],
    ["search_corpus", { query: "x", date_from: "2024-1-1" }, "date_from"],
    ["run_sweep", { query: "x", sources: [] }, "sources"],
  ])("%s %j names %s", async (name, args, field) => {
    const { error, body } = await call(name, args);
    expect(error).toBe(true);
    expect(body.error).toBe("invalid_argument");
    expect(body.detail).toMatchObject({ field });
    expect(body.message).not.toMatch(/-32602|Input validation error/);
    expect(fake.seen).toHaveLength(0);
  });

  it("says a missing argument is required", async () => {
    const { body } = await call("get_routine", {});
    expect(body).toMatchObject({ error: "invalid_argument", message: "Argument 'routine_id' is required." });
  });

  it("refuses an unknown argument by name", async () => {
    const { body } = await call("health", { verbose: true });
    expect(body).toMatchObject({ error: "invalid_argument", detail: { field: "verbose" } });
    expect(body.message).toContain("verbose");
  });

  it("refuses offset on search_corpus with a sentence saying why", async () => {
    const { body } = await call("search_corpus", { query: "x", offset: 25 });
    expect(body).toMatchObject({ error: "invalid_argument", detail: { field: "offset" } });
    expect(body.message).toMatch(/cursor/);
    expect(fake.seen).toHaveLength(0);
  });

  it.each([
    [""],
    ["A557B1B5-0382-4F28-A866-3D5BB2700F73"],
    ["not-a-uuid"],
    ["a557b1b5-0382-1f28-a866-3d5bb2700f73"],
  ])("refuses expected_runtime_id %j before discovery", async (value) => {
    const before = fake.discoveries();
    for (const name of ["health", "get_execution"]) {
      const { body } = await call(name, {
        exec_id: 1,
        expected_runtime_id: value,
        ...(name === "health" ? { exec_id: undefined } : {}),
      });
      expect(body).toMatchObject({ error: "invalid_argument", detail: { field: "expected_runtime_id" } });
    }
    expect(fake.discoveries()).toBe(before);
    expect(fake.seen).toHaveLength(0);
  });

  it("says window was not applied on views whose route takes none, and sends none", async () => {
    const { body } = await call("get_analytics", { view: "overview", window: 6 });
    expect(body).toMatchObject({ view: "overview", window_applied: false });
    expect(JSON.stringify(body.not_applied)).toContain("window was not applied");
    expect(fake.seen.map((r) => [r.path, r.query])).toEqual([["/api/analytics/overview", {}]]);
  });

  it("refuses export_references with both or neither of exec_id and doc_ids", async () => {
    expect((await call("export_references", { format: "ris" })).body.error).toBe("invalid_argument");
    expect((await call("export_references", { format: "ris", exec_id: 1, doc_ids: [1] })).body.error).toBe(
      "invalid_argument",
    );
    expect(fake.seen).toHaveLength(0);
  });
});

describe("HTTP outcomes map onto the spec's codes", () => {
  it.each([
    [404, { detail: "Routine not found" }, "not_found", "Routine not found"],
    [400, { detail: "Malformed cursor: 'x'" }, "invalid_argument", "Malformed cursor: 'x'"],
    [
      422,
      { detail: [{ loc: ["body", "parameters"], msg: "Field required" }] },
      "invalid_argument",
      "parameters",
    ],
    [409, { detail: "busy" }, "conflict", "busy"],
    [500, { detail: "boom" }, "upstream_error", "boom"],
    [503, "not json", "upstream_error", "internal error"],
    [403, { detail: { reason: "host_refused", message: "no" } }, "internal_error", "bug"],
  ])("%i → %s", async (status, body, code, text) => {
    reply = () => ({ status, body });
    const { error, body: answer } = await call("get_routine", { routine_id: 1 });
    expect(error).toBe(true);
    expect(answer.error).toBe(code);
    expect(String(answer.message)).toContain(text);
    expect(answer.detail).toMatchObject({ status });
  });

  it("429 is a conflict carrying Retry-After", async () => {
    reply = () => ({ status: 429, body: { detail: "No execution slot is free." }, retryAfter: 5 });
    const { body } = await call("run_sweep", { query: "x", sources: ["arxiv"] });
    expect(body).toMatchObject({ error: "conflict", detail: { status: 429, retry_after: 5 } });
  });

  it("a malformed body is upstream_error", async () => {
    reply = () => ({ fail: "malformed" });
    expect((await call("list_routines", {})).body.error).toBe("upstream_error");
  });

  it("a dropped connection is backend_unavailable, and the next call discovers afresh", async () => {
    reply = () => ({ fail: "transport" });
    const before = fake.discoveries();
    const { body } = await call("list_routines", {});
    expect(body).toMatchObject({
      error: "backend_unavailable",
      tried: ["http://127.0.0.1:51734"],
      no_port_named: false,
    });
    expect(body.detail).toMatchObject({ tried: ["http://127.0.0.1:51734"], no_port_named: false });
    reply = () => ({ status: 200, body: [] });
    expect((await call("list_routines", {})).error).toBe(false);
    expect(fake.discoveries()).toBe(before + 1);
  });

  it("a timeout is backend_unavailable within the bound", async () => {
    reply = () => ({ fail: "timeout" });
    const { body } = await call("list_routines", {});
    expect(body.error).toBe("backend_unavailable");
    expect(String(body.message)).toMatch(/30 seconds/);
  });

  it("a 401 mid-session says the app restarted, and the next call discovers afresh", async () => {
    reply = () => ({ status: 200, body: [] });
    await call("list_routines", {});
    const before = fake.discoveries();
    reply = () => ({
      status: 401,
      body: {
        detail: {
          reason: "token_invalid",
          message: "The local API token on this request is not this resmon's.",
        },
      },
    });
    const { body } = await call("list_routines", {});
    expect(body.error).toBe("backend_unavailable");
    expect(String(body.message)).toMatch(/restarted/);
    reply = () => ({ status: 200, body: [] });
    await call("list_routines", {});
    expect(fake.discoveries()).toBe(before + 1);
  });

  it("a working connection is reused: no rediscovery between successful calls", async () => {
    reply = () => ({ status: 200, body: [] });
    await call("list_routines", {});
    const before = fake.discoveries();
    await call("list_routines", {});
    await call("list_routines", {});
    expect(fake.discoveries()).toBe(before);
  });

  it("an answer lacking what the tool promises is upstream_error naming the field, never the SDK's validation error", async () => {
    reply = () => ({ status: 200, body: { status: "ok" } }); // health without a version
    const { body } = await call("health", {});
    expect(body).toEqual({
      error: "upstream_error",
      message: expect.any(String),
      detail: { field: "version" },
    });
    expect(String(body.message)).toContain("version");
  });

  it.each([
    ["list_routines", {}, { unexpected: true }],
    ["list_executions", {}, "nope"],
    ["list_sources", {}, { sources: [] }],
    ["list_watch_profiles", {}, { profiles: "x" }],
    ["search_corpus", { query: "x" }, { next_cursor: null }],
    ["find_similar", { doc_id: 1 }, { document_id: 1 }],
    ["get_profile_matches", { profile_id: 1 }, { total: 3 }],
    ["get_watchdog_findings", {}, []],
    ["get_analytics", { view: "overview" }, "text"],
  ])(
    "%s: a reply without its list is upstream_error, never an empty answer",
    async (name, args, replyBody) => {
      reply = () => ({ status: 200, body: replyBody });
      const { error, body } = await call(name, args);
      expect(error).toBe(true);
      expect(body.error).toBe("upstream_error");
    },
  );
});

describe("identity", () => {
  const healthBody = (runtime: string) => ({ status: "ok", version: "2.3.0", identity: identity(runtime) });
  const execBody = (runtime: string) => ({
    id: 1,
    status: "completed",
    ...RUN_RECORD_23,
    identity: identity(runtime),
  });

  it("health with a matching expectation answers and sends it", async () => {
    reply = () => ({ status: 200, body: healthBody(RUNTIME) });
    const { error, body } = await call("health", { expected_runtime_id: RUNTIME });
    expect(error).toBe(false);
    expect(body.identity).toMatchObject({ runtime_id: RUNTIME });
    expect(fake.seen[0]?.query).toEqual({ expected_runtime_id: RUNTIME });
  });

  it("get_execution preflights health, then asks for the execution with the same expectation", async () => {
    reply = (req) => ({
      status: 200,
      body: req.path === "/api/health" ? healthBody(RUNTIME) : execBody(RUNTIME),
    });
    const { error, body } = await call("get_execution", { exec_id: 1, expected_runtime_id: RUNTIME });
    expect(error).toBe(false);
    expect(body).toMatchObject({ id: 1, identity: { runtime_id: RUNTIME } });
    expect(fake.seen.map((r) => [r.path, r.query.expected_runtime_id])).toEqual([
      ["/api/health", RUNTIME],
      ["/api/executions/{exec_id}", RUNTIME],
    ]);
  });

  it("a structured 409 at preflight is instance_mismatch and no execution is requested", async () => {
    reply = () => ({
      status: 409,
      body: {
        detail: {
          code: "instance_mismatch",
          message: "This request reached a different running app.",
          expected_runtime_id: OTHER,
          actual_runtime_id: RUNTIME,
        },
      },
    });
    const { body } = await call("get_execution", { exec_id: 1, expected_runtime_id: OTHER });
    expect(body).toMatchObject({
      error: "instance_mismatch",
      detail: { expected_runtime_id: OTHER, actual_runtime_id: RUNTIME },
    });
    expect(fake.seen.map((r) => r.path)).toEqual(["/api/health"]);
  });

  it.each([
    ["missing", { status: "ok", version: "2.3.0" }],
    ["malformed", { status: "ok", version: "2.3.0", identity: { contract_version: 1, runtime_id: "nope" } }],
    [
      "unsupported",
      { status: "ok", version: "2.3.0", identity: { ...identity(RUNTIME), contract_version: 2 } },
    ],
  ])(
    "a preflight whose identity is %s is identity_unavailable and sends no execution request",
    async (_, hb) => {
      reply = () => ({ status: 200, body: hb });
      const { body } = await call("get_execution", { exec_id: 1, expected_runtime_id: RUNTIME });
      expect(body.error).toBe("identity_unavailable");
      expect(fake.seen.map((r) => r.path)).toEqual(["/api/health"]);
    },
  );

  it("an execution answering with another runtime is instance_mismatch and its content is discarded", async () => {
    reply = (req) => ({
      status: 200,
      body: req.path === "/api/health" ? healthBody(RUNTIME) : execBody(OTHER),
    });
    const { body } = await call("get_execution", { exec_id: 1, expected_runtime_id: RUNTIME });
    expect(body.error).toBe("instance_mismatch");
    expect(JSON.stringify(body)).not.toContain("completed");
  });

  it("an unrelated 409 stays conflict; 404 with a matching id stays not_found", async () => {
    reply = (req) =>
      req.path === "/api/health"
        ? { status: 200, body: healthBody(RUNTIME) }
        : { status: 404, body: { detail: "Execution not found" } };
    expect((await call("get_execution", { exec_id: 999, expected_runtime_id: RUNTIME })).body.error).toBe(
      "not_found",
    );
    reply = () => ({ status: 409, body: { detail: { code: "something_else", message: "busy" } } });
    expect((await call("health", { expected_runtime_id: RUNTIME })).body.error).toBe("conflict");
  });

  it("an unbound call passes on no identity when resmon reported none", async () => {
    reply = () => ({ status: 200, body: { id: 1, status: "running", ...RUN_RECORD_23 } });
    const { error, body } = await call("get_execution", { exec_id: 1 });
    expect(error).toBe(false);
    expect(body).not.toHaveProperty("identity");
    expect(fake.seen.map((r) => r.query)).toEqual([{}]);
  });
});
