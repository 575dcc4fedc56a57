import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { EXCLUDED_ROUTES, ROUTES, TOOL_BY_NAME, TOOLS, type ToolName } from "@resmon/mcp-contract";
import { startTestkit, type Testkit } from "@resmon/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { isError, parsed } from "./helpers/mcp.js";
import { CLI, cleanEnv, HAVE_CLI, waitForProbe } from "./helpers/spawn.js";

/**
 * End to end: the SDK Client over stdio, spawning the built `resmon-mcp`, against an in-process
 * testkit. One server and one testkit for the whole file, to keep the suite fast.
 */
const OTHER = "11111111-2222-4333-8444-555555555555";
let kit: Testkit;
/** Requests since the last mark: the full log is kept for the whole-file assertions. */
let mark = 0;
const since = () => kit.requests.slice(mark);
let client: Client;
let dir: string;
const frames: string[] = [];
let stderr = "";
const tokens = new Set<string>();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "resmon-mcp-e2e-"));
  kit = await startTestkit({ stateDir: dir, seed: "small" });
  tokens.add(kit.token);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI],
    env: cleanEnv({
      RESMON_PORT_FILE: kit.portFile ?? "",
      RESMON_STATE_DIR: dir,
      RESMON_MCP_TIMEOUT_MS: "1500",
      RESMON_MCP_SCAN_DATA: join(dir, "scans"),
      // scan_start's example answers await_retrieval after this, not after the 20 s default.
      RESMON_MCP_SCAN_WAIT_MS: "500",
    }),
    stderr: "pipe",
  });
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  client = new Client({ name: "e2e", version: "0.0.0" });
  await client.connect(transport);
  // The session under way and the start-up probe done, so no test counts the probe's request.
  await client.listTools();
  await waitForProbe(() => stderr);
  // Keep every frame the server wrote, to prove the token is in none of them.
  const deliver = transport.onmessage;
  transport.onmessage = (message) => {
    frames.push(JSON.stringify(message));
    deliver?.(message);
  };
}, 30_000);

afterAll(async () => {
  await client?.close();
  await kit?.stop();
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  kit.clearFaults();
});

async function call(name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  return { error: isError(result), body: parsed(result) };
}

async function ok(name: ToolName, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const { error, body } = await call(name, args);
  expect(error, JSON.stringify(body).slice(0, 400)).toBe(false);
  expect(TOOL_BY_NAME[name].output.safeParse(body).success).toBe(true);
  return body;
}

describe.skipIf(!HAVE_CLI)("every tool against the testkit, over stdio", () => {
  /** Each row's own example call (the contract's table), so a new row is called here without an edit. */
  // A row whose example needs earlier calls (the scan tools: scan-e2e.test.ts runs their sequence) is skipped.
  const examples = TOOLS.filter((t) => !t.exampleNeeds).map(
    (t) => [t.name, t.example] as [ToolName, Record<string, unknown>],
  );
  /** More argument shapes than the examples show. */
  const variants: [ToolName, Record<string, unknown>][] = [
    ["search_corpus", { query: "graph neural network", mode: "semantic", limit: 3 }],
    ["list_routines", { active_only: true }],
    ["list_executions", { routine_id: 1, status: "completed", limit: 2 }],
    ["get_execution_results", { exec_id: 1, limit: 2, offset: 1 }],
    ["get_analytics", { view: "volume", window: 6 }],
    ["get_analytics", { view: "routine-health" }],
    ["get_watchdog_findings", { include_muted: false }],
    ["export_references", { doc_ids: [1, 2], format: "csv" }],
    ["list_watch_profiles", { kind: "person" }],
    ["create_watch_profile", { name: "Jane Doe", orcid: "0000-0001-2345-6789" }],
  ];

  it.each(examples)("%s %j (its row's example) answers its documented success shape", async (name, args) => {
    await ok(name, args);
  });

  it.each(variants)("%s %j answers its documented success shape", async (name, args) => {
    await ok(name, args);
  });

  it("search_corpus semantic really ranks, and counts what it could not", async () => {
    const body = await ok("search_corpus", { query: "graph neural network", mode: "semantic", limit: 5 });
    expect(body.mode).toBe("semantic");
    const distances = (body.papers as { distance: number }[]).map((p) => p.distance);
    expect([...distances].sort((a, b) => a - b)).toEqual(distances);
    expect(typeof body.ranked_count).toBe("number");
    expect(typeof body.unranked_count).toBe("number");
  });

  it("search_corpus semantic that resmon declines says mode keyword and why", async () => {
    kit.setSemanticAvailable(false);
    try {
      const body = await ok("search_corpus", { query: "graph", mode: "semantic" });
      expect(body.mode).toBe("keyword");
      expect(typeof body.mode_unavailable).toBe("string");
    } finally {
      kit.setSemanticAvailable(true);
    }
  });

  it("search_corpus cursor paging visits new papers on the next page", async () => {
    const first = await ok("search_corpus", { query: "graph", limit: 2 });
    const second = await ok("search_corpus", { query: "graph", limit: 2, cursor: first.next_cursor });
    const ids = (b: Record<string, unknown>) => (b.papers as { id: number }[]).map((p) => p.id);
    expect(ids(second).some((id) => ids(first).includes(id))).toBe(false);
  });

  it("list_executions filtered by routine and status is honest across the backend's pages", async () => {
    const body = await ok("list_executions", { routine_id: 1, status: "completed" });
    const rows = body.executions as { routine_id: number; status: string }[];
    expect(rows.every((r) => r.routine_id === 1 && r.status === "completed")).toBe(true);
    const sent = kit.requests.filter((r) => r.route === "/api/executions").at(-1);
    expect(Object.keys(sent?.query ?? {}).sort()).toEqual(["limit", "offset"]);
  });

  it("create_routine's record read back is inactive", async () => {
    const body = await ok("create_routine", {
      name: "E2E inactive",
      keywords: ["turbulence"],
      sources: ["arxiv"],
      schedule: "0 7 * * 1",
    });
    expect(body.routine).toMatchObject({ is_active: false });
    const posted = kit.requests.filter((r) => r.route === "/api/routines" && r.method === "POST").at(-1);
    expect(posted?.body).not.toHaveProperty("intent");
  });

  it.each([
    [["machine learning"], ["machine learning"]],
    // Keywords travel as one query string, and resmon keeps that string as one keyword.
    [["graph", "neural network"], ["graph neural network"]],
  ])(
    "create_routine %j reads back as %j from create, get_routine and list_routines",
    async (keywords, stored) => {
      const created = await ok("create_routine", {
        name: `Round trip ${keywords.length}`,
        keywords,
        sources: ["arxiv"],
        schedule: "0 7 * * 1",
      });
      const routine = created.routine as { id: number; keywords: unknown };
      expect(routine.keywords).toEqual(stored);
      const read = await ok("get_routine", { routine_id: routine.id });
      expect(read.keywords).toEqual(stored);
      const listed = (await ok("list_routines", {})).routines as { id: number; keywords: unknown }[];
      expect(listed.find((r) => r.id === routine.id)?.keywords).toEqual(stored);
    },
  );
});

describe.skipIf(!HAVE_CLI)("every optional argument reaches resmon as a field its OpenAPI declares", () => {
  it.each([
    [
      "search_corpus",
      {
        query: "graph",
        sources: ["arxiv", "doaj"],
        date_from: "2020-01-01",
        date_to: "2026-12-31",
        limit: 2,
      },
    ],
    ["list_executions", { routine_id: 2, status: "completed", limit: 1, offset: 1 }],
    ["get_profile_matches", { profile_id: 1, limit: 1, offset: 1 }],
    ["list_watch_profiles", { kind: "person" }],
    [
      "run_sweep",
      {
        query: "q",
        sources: ["arxiv"],
        date_from: "2026-01-01",
        date_to: "2026-02-01",
        max_results: 5,
        ai_enabled: false,
      },
    ],
    [
      "create_routine",
      {
        name: "Every field",
        keywords: ["a", "b"],
        sources: ["arxiv"],
        schedule: "0 7 * * 1",
        intent: "What it is for",
        entity: { profile_id: 1, mode: "new_papers" },
        ai_enabled: true,
        notify_on_complete: true,
        email_enabled: false,
        email_ai_summary_enabled: false,
      },
    ],
    [
      "create_watch_profile",
      {
        name: "Jo Example",
        orcid: "0000-0002-1825-0097",
        orcid_cited: "https://example.org/cv",
        aliases: ["J. Example"],
        affiliations: ["Example University"],
        field_hints: ["physics"],
      },
    ],
  ] as [ToolName, Record<string, unknown>][])("%s %j", async (name, args) => {
    kit.setAdmission({ maxConcurrent: 50 });
    mark = kit.requests.length;
    await ok(name, args);
    kit.setAdmission({ maxConcurrent: 3 });
    expect(since().filter((r) => r.strictnessRefusal)).toEqual([]);
  });

  it("run_sweep's body carries exactly what was given", async () => {
    mark = kit.requests.length;
    await call("run_sweep", { query: "q", sources: ["biorxiv"] }); // admitted or at the run limit: same body
    expect(since()[0]?.body).toEqual({ query: "q", repositories: ["biorxiv"] });
  });
});

describe.skipIf(!HAVE_CLI)("refusals send nothing", () => {
  it.each([
    ["search_corpus", { query: "x", offset: 5 }],
    ["search_corpus", { query: "" }],
    ["get_execution", { exec_id: 1, expected_runtime_id: "" }],
    ["health", { expected_runtime_id: "NOT-A-UUID" }],
    ["update_settings", { group: "ai", settings: { openai_api_key: "x" } }],
    ["update_settings", { group: "email", settings: { smtp_server: "mail.example.org" } }],
    ["export_references", { format: "ris" }],
    ["no_such_tool", {}],
  ])("%s %j", async (name, args) => {
    mark = kit.requests.length;
    const { error, body } = await call(name, args);
    expect(error).toBe(true);
    expect(body.error).toBe("invalid_argument");
    expect(since()).toHaveLength(0);
  });
});

describe.skipIf(!HAVE_CLI)("identity", () => {
  it("match: health's runtime_id binds get_execution", async () => {
    const health = await ok("health");
    const runtime = (health.identity as { runtime_id: string }).runtime_id;
    expect(runtime).toBe(kit.runtimeId);
    mark = kit.requests.length;
    const body = await ok("get_execution", { exec_id: 1, expected_runtime_id: runtime });
    expect(body.identity).toMatchObject({ runtime_id: runtime });
    expect(since().map((r) => [r.route, r.query.expected_runtime_id])).toEqual([
      ["/api/health", runtime],
      ["/api/executions/{exec_id}", runtime],
    ]);
  });

  it("mismatch: instance_mismatch at preflight, and no execution request", async () => {
    mark = kit.requests.length;
    const { body } = await call("get_execution", { exec_id: 1, expected_runtime_id: OTHER });
    expect(body).toMatchObject({ error: "instance_mismatch", detail: { expected_runtime_id: OTHER } });
    expect(since().map((r) => r.route)).toEqual(["/api/health"]);
    expect((await call("health", { expected_runtime_id: OTHER })).body.error).toBe("instance_mismatch");
  });

  it.each([["missing"], ["malformed"], ["unsupported"]] as const)(
    "unavailable (%s): identity_unavailable, and no execution request",
    async (mode) => {
      kit.setIdentityMode(mode);
      try {
        mark = kit.requests.length;
        const { body } = await call("get_execution", { exec_id: 1, expected_runtime_id: kit.runtimeId });
        expect(body.error).toBe("identity_unavailable");
        expect(since().map((r) => r.route)).toEqual(["/api/health"]);
      } finally {
        kit.setIdentityMode("normal");
      }
    },
  );

  it.each([["missing"], ["malformed"], ["unsupported"]] as const)(
    "unbound reads stay available when the identity is %s, and carry none in its place",
    async (mode) => {
      kit.setIdentityMode(mode);
      try {
        for (const [name, args] of [
          ["health", {}],
          ["get_execution", { exec_id: 1 }],
        ] as const) {
          const body = await ok(name, args);
          expect(body).not.toHaveProperty("identity");
          if (mode !== "missing") expect(body.identity_problem).toBe(mode);
        }
      } finally {
        kit.setIdentityMode("normal");
      }
    },
  );

  it("an unbound read with a null schema version invents nothing", async () => {
    kit.setIdentityMode("null_schema");
    try {
      const body = await ok("health");
      expect(body.schema_version).toBeNull();
    } finally {
      kit.setIdentityMode("normal");
    }
  });
});

describe.skipIf(!HAVE_CLI)("failures", () => {
  it("a 5xx is upstream_error; a malformed body is upstream_error", async () => {
    kit.setFault("/api/routines", { kind: "status", status: 503 }, { times: 1 });
    expect((await call("list_routines")).body.error).toBe("upstream_error");
    kit.setFault("/api/routines", { kind: "malformed_json" }, { times: 1 });
    expect((await call("list_routines")).body.error).toBe("upstream_error");
  });

  it("a dropped connection is backend_unavailable; the next call works", async () => {
    kit.setFault("/api/routines", { kind: "drop_connection" }, { times: 1 });
    const { body } = await call("list_routines");
    expect(body).toMatchObject({ error: "backend_unavailable", tried: [kit.baseUrl], no_port_named: false });
    await ok("list_routines");
  });

  it("a backend that never answers is backend_unavailable within the configured bound", async () => {
    kit.setFault("/api/watchdog", { kind: "hang" }, { times: 1 });
    const started = Date.now();
    const { body } = await call("get_watchdog_findings");
    expect(body.error).toBe("backend_unavailable");
    expect(Date.now() - started).toBeLessThan(6000);
  });

  it("a 404 is not_found", async () => {
    expect((await call("get_routine", { routine_id: 999 })).body.error).toBe("not_found");
    expect(
      (await call("get_execution", { exec_id: 999, expected_runtime_id: kit.runtimeId })).body.error,
    ).toBe("not_found");
  });

  it("a token refused at discovery names the instance and does not claim resmon is not running", async () => {
    kit.refuseAllTokens(true);
    try {
      kit.setFault(
        "/api/routines",
        { kind: "status", status: 401, body: { detail: { reason: "token_invalid", message: "x" } } },
        { times: 1 },
      );
      await call("list_routines"); // drops the connection: the next call discovers afresh
      const { body } = await call("list_routines");
      expect(body.error).toBe("backend_unavailable");
      expect(body.message).not.toMatch(/not running/);
    } finally {
      kit.refuseAllTokens(false);
    }
  });

  it("a restart mid-session (new token) is backend_unavailable saying so; the next call discovers afresh", async () => {
    await ok("list_routines");
    await kit.restart();
    tokens.add(kit.token);
    const { body } = await call("list_routines");
    expect(body.error).toBe("backend_unavailable");
    expect(String(body.message)).toMatch(/restarted/);
    await ok("list_routines");
    expect((await ok("health")).identity).toMatchObject({ runtime_id: kit.runtimeId });
  });

  it("run_routine while that routine runs is a conflict carrying its execution id", async () => {
    kit.setAdmission({ maxConcurrent: 50, runDurationMs: 60_000 });
    try {
      const started = await ok("run_routine", { routine_id: 1 });
      expect(started.queued).toBe(false);
      const again = await call("run_routine", { routine_id: 1 });
      expect(again.body).toMatchObject({
        error: "conflict",
        detail: { conflict: "routine_already_running", execution_id: started.execution_id },
      });
    } finally {
      kit.setAdmission({ maxConcurrent: 3, runDurationMs: 1500 });
    }
  });

  it("run_routine at the run limit is queued with a position and no execution id", async () => {
    kit.setAdmission({ maxConcurrent: 1, queueLimit: 1, runDurationMs: 60_000 });
    try {
      await call("run_sweep", { query: "x", sources: ["arxiv"] });
      const queued = await ok("run_routine", { routine_id: 2 });
      expect(queued).toMatchObject({ queued: true, execution_id: null });
      expect(typeof queued.queue_position).toBe("number");
      const full = await call("run_routine", { routine_id: 4 });
      expect(full.body).toMatchObject({ error: "conflict", detail: { conflict: "queue_full" } });
      const sweep = await call("run_sweep", { query: "x", sources: ["arxiv"] });
      expect(sweep.body).toMatchObject({ error: "conflict" });
    } finally {
      kit.setAdmission({ maxConcurrent: 3, queueLimit: 16, runDurationMs: 1500 });
    }
  });
});

describe.skipIf(!HAVE_CLI)("over the whole file", () => {
  it("every request sent matches one of the contract's 44 pairs, never an excluded route", () => {
    const patterns = ROUTES.map((r) => ({
      method: r.method,
      re: new RegExp(`^${r.path.replace(/\{[^}]+\}/g, "[^/]+")}$`),
    }));
    expect(kit.requests.length).toBeGreaterThan(50);
    for (const req of kit.requests) {
      const pair = `${req.method} ${req.path}`;
      expect(
        patterns.some((p) => p.method === req.method && p.re.test(req.path)),
        pair,
      ).toBe(true);
      expect(req.method).not.toBe("DELETE");
      expect(req.path).not.toMatch(
        /^\/api\/(admin|service)\/|\/progress\/stream$|^\/api\/lifecycle\/check$|^\/api\/settings\/execution$/,
      );
    }
    expect(EXCLUDED_ROUTES.length).toBeGreaterThan(0);
  });

  it("the testkit counted zero strictness refusals", () => {
    expect(kit.strictnessRefusals()).toBe(0);
  });

  it("no token appears in any byte the server wrote (frames and stderr)", () => {
    expect(frames.length).toBeGreaterThan(50);
    const everything = frames.join("\n") + stderr;
    for (const token of tokens) expect(everything).not.toContain(token);
  });
});
