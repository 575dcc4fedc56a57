/**
 * The server-behaviour suite, end to end: the SDK Client over stdio, spawning the built
 * `resmon-mcp`, against an in-process stand-in playing each resmon this server supports (1.6, 1.7,
 * 2.3: the testkit's RELEASES). One server and one stand-in per release, to keep it fast. On each,
 * every call answers its contract or, where that release lacks what the call needs, the version gap
 * (conflict, not_in_this_resmon); the requests are counted per route to prove none reached a route
 * that release lacks, and no upstream_error is only a version gap.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import {
  argumentFeatures,
  compareVersions,
  EXCLUDED_ROUTES,
  FEATURE_SINCE,
  NOT_IN_THIS_RESMON,
  newestLine,
  type ResmonLine,
  ROUTES,
  routeSince,
  TOOL_BY_NAME,
  TOOLS,
  type ToolName,
  toolNeeds,
} from "@resmon/mcp-contract";
import { RELEASES, startTestkit, type Testkit } from "@resmon/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { isError, parsed } from "./helpers/mcp.js";
import { CLI, cleanEnv, HAVE_CLI, waitForProbe } from "./helpers/spawn.js";

const OTHER = "11111111-2222-4333-8444-555555555555";

/**
 * Calls whose arguments need a newer resmon than the tool itself (the handlers' requireFeature and
 * the scan's sweep retrieval): on an older line each answers the version gap naming this line.
 */

const ROUTE_PATTERNS = ROUTES.map((route) => ({
  route,
  re: new RegExp(`^${route.path.replace(/\{[^}]+\}/g, "[^/]+")}$`),
}));

/** The contract's route a request went to, by method and concrete path. */
function contractRouteOf(method: string, path: string): (typeof ROUTES)[number] | undefined {
  return ROUTE_PATTERNS.find((p) => p.route.method === method && p.re.test(path))?.route;
}

/** The oldest resmon line on which this call answers its contract. */
function callNeeds(name: ToolName, args: Record<string, unknown>): ResmonLine {
  const lines = [toolNeeds(TOOL_BY_NAME[name])];
  for (const feature of argumentFeatures(name, args)) lines.push(FEATURE_SINCE[feature]);
  return newestLine(lines);
}

describe.each(RELEASES.map((r) => r.line))("against the stand-in as resmon %s", (line) => {
  const onLine = (needs: ResmonLine) => compareVersions(line, needs) >= 0;
  let kit: Testkit;
  /** Requests since the last mark: the full log is kept for the whole-file assertions. */
  let mark = 0;
  const since = () => kit.requests.slice(mark);
  let client: Client;
  let dir: string;
  const frames: string[] = [];
  let stderr = "";
  const tokens = new Set<string>();
  /** Every upstream_error answered, and whether the test had armed a fault that explains it. */
  const upstreamErrors: { name: string; faulted: boolean; message: string }[] = [];
  let faulted = false;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), `resmon-mcp-e2e-${line}-`));
    kit = await startTestkit({ stateDir: dir, seed: "small", as: line });
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
    faulted = false;
  });

  /** A fault set for the test under way: an upstream_error after it is the fault's, not a version gap. */
  function setFault(...args: Parameters<Testkit["setFault"]>): void {
    faulted = true;
    kit.setFault(...args);
  }

  async function call(name: string, args: Record<string, unknown> = {}) {
    const result = await client.callTool({ name, arguments: args });
    const body = parsed(result);
    const error = isError(result);
    if (error && body.error === "upstream_error") {
      upstreamErrors.push({ name, faulted, message: String(body.message) });
    }
    return { error, body };
  }

  /**
   * The call as this release should answer it: its documented success shape (returned), or, where
   * the release lacks what it needs, the version gap naming this release and the line that has it,
   * with nothing but reads sent (returned as null).
   */
  async function answer(
    name: ToolName,
    args: Record<string, unknown> = {},
  ): Promise<Record<string, unknown> | null> {
    const before = kit.requests.length;
    const { error, body } = await call(name, args);
    const needs = callNeeds(name, args);
    if (!onLine(needs)) {
      expect(body, `${name} on resmon ${line}`).toMatchObject({
        error: "conflict",
        detail: { reason: NOT_IN_THIS_RESMON, needs, resmon_version: kit.release.version },
      });
      expect(
        kit.requests
          .slice(before)
          .filter((r) => r.method !== "GET")
          .map((r) => `${r.method} ${r.path}`),
      ).toEqual([]);
      return null;
    }
    expect(error, JSON.stringify(body).slice(0, 400)).toBe(false);
    expect(TOOL_BY_NAME[name].output.safeParse(body).success).toBe(true);
    return body;
  }

  /** answer(), for a call every supported resmon answers (its tool and arguments need only 1.6). */
  async function ok(name: ToolName, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    expect(callNeeds(name, args), `${name} needs more than resmon 1.6`).toBe("1.6");
    return (await answer(name, args)) as Record<string, unknown>;
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

    it.each(examples)(
      "%s %j (its row's example) answers its success shape or the version gap",
      async (name, args) => {
        await answer(name, args);
      },
    );

    it.each(variants)("%s %j answers its success shape or the version gap", async (name, args) => {
      await answer(name, args);
    });

    it("search_corpus semantic really ranks where resmon ranks (2.3+), and counts what it could not", async () => {
      mark = kit.requests.length;
      const body = await ok("search_corpus", { query: "graph neural network", mode: "semantic", limit: 5 });
      const sent = since().filter((r) => r.path === "/api/explorer/search");
      if (!onLine(FEATURE_SINCE.similarity_search)) {
        // That resmon has no similarity search: its keyword results, said so, and no sort it would ignore.
        expect(body.mode).toBe("keyword");
        expect(String(body.mode_unavailable)).toContain(kit.release.version);
        expect(sent.length).toBeGreaterThan(0);
        expect(sent.filter((r) => Object.hasOwn(r.body as object, "sort"))).toEqual([]);
        return;
      }
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
      "create_routine %j reads back as %j from create, get_routine and list_routines (where they answer)",
      async (keywords, stored) => {
        const created = await ok("create_routine", {
          name: `Round trip ${keywords.length}`,
          keywords,
          sources: ["arxiv"],
          schedule: "0 7 * * 1",
        });
        const routine = created.routine as { id: number; keywords: unknown };
        expect(routine.keywords).toEqual(stored);
        const read = await answer("get_routine", { routine_id: routine.id });
        if (read) expect(read.keywords).toEqual(stored);
        const list = await answer("list_routines", {});
        const listed = (list?.routines ?? []) as { id: number; keywords: unknown }[];
        if (list) expect(listed.find((r) => r.id === routine.id)?.keywords).toEqual(stored);
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
      await answer(name, args);
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
    // Faults go on /api/executions: list_executions answers on every supported resmon.
    it("a 5xx is upstream_error; a malformed body is upstream_error", async () => {
      setFault("/api/executions", { kind: "status", status: 503 }, { times: 1 });
      expect((await call("list_executions")).body.error).toBe("upstream_error");
      setFault("/api/executions", { kind: "malformed_json" }, { times: 1 });
      expect((await call("list_executions")).body.error).toBe("upstream_error");
    });

    it("a dropped connection is backend_unavailable; the next call works", async () => {
      setFault("/api/executions", { kind: "drop_connection" }, { times: 1 });
      const { body } = await call("list_executions");
      expect(body).toMatchObject({
        error: "backend_unavailable",
        tried: [kit.baseUrl],
        no_port_named: false,
      });
      await ok("list_executions");
    });

    it("a backend that never answers is backend_unavailable within the configured bound", async () => {
      // The watchdog where this resmon has it (1.7+), else the run list.
      const [name, route] = onLine("1.7")
        ? (["get_watchdog_findings", "/api/watchdog"] as const)
        : (["list_executions", "/api/executions"] as const);
      setFault(route, { kind: "hang" }, { times: 1 });
      const started = Date.now();
      const { body } = await call(name);
      expect(body.error).toBe("backend_unavailable");
      // The route never answers: only the 1.5 s timeout ends the call. A wide margin for a loaded machine.
      expect(Date.now() - started).toBeLessThan(15_000);
    });

    it("a 404 is not_found (get_routine where this resmon answers it, else the version gap)", async () => {
      const routine = await call("get_routine", { routine_id: 999 });
      if (onLine(toolNeeds(TOOL_BY_NAME.get_routine))) expect(routine.body.error).toBe("not_found");
      else expect(routine.body.detail).toMatchObject({ reason: NOT_IN_THIS_RESMON });
      expect(
        (await call("get_execution", { exec_id: 999, expected_runtime_id: kit.runtimeId })).body.error,
      ).toBe("not_found");
    });

    it("a token refused at discovery names the instance and does not claim resmon is not running", async () => {
      kit.refuseAllTokens(true);
      try {
        setFault(
          "/api/executions",
          { kind: "status", status: 401, body: { detail: { reason: "token_invalid", message: "x" } } },
          { times: 1 },
        );
        await call("list_executions"); // drops the connection: the next call discovers afresh
        const { body } = await call("list_executions");
        expect(body.error).toBe("backend_unavailable");
        expect(body.message).not.toMatch(/not running/);
      } finally {
        kit.refuseAllTokens(false);
      }
    });

    it("a restart mid-session (new token) is backend_unavailable saying so; the next call discovers afresh", async () => {
      await ok("list_executions");
      await kit.restart();
      tokens.add(kit.token);
      const { body } = await call("list_executions");
      expect(body.error).toBe("backend_unavailable");
      expect(String(body.message)).toMatch(/restarted/);
      await ok("list_executions");
      expect((await ok("health")).identity).toMatchObject({ runtime_id: kit.runtimeId });
    });

    it("run_routine while that routine runs is a conflict carrying its execution id", async () => {
      kit.setAdmission({ maxConcurrent: 50, runDurationMs: 60_000 });
      try {
        const started = await answer("run_routine", { routine_id: 1 });
        // resmon before 2.3 cannot start a routine on request: the version gap, nothing sent (answer()).
        if (!started) return;
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
        const queued = await answer("run_routine", { routine_id: 2 });
        if (!queued) {
          // No routine run on request before 2.3 (answer() saw the gap); the sweep limit still holds.
          const sweep = await call("run_sweep", { query: "x", sources: ["arxiv"] });
          expect(sweep.body).toMatchObject({ error: "conflict" });
          return;
        }
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
    it("every request sent matches one of the contract's pairs, never an excluded route", () => {
      expect(kit.requests.length).toBeGreaterThan(50);
      // Besides those pairs, resmon's own route list: read once per runtime id (this file restarts
      // the testkit once, so there are two runtime ids), never once per call.
      const routeLists = kit.requests.filter((r) => r.method === "GET" && r.path === "/openapi.json");
      expect(routeLists.length).toBeGreaterThanOrEqual(1);
      expect(routeLists.length).toBeLessThanOrEqual(2);
      for (const req of kit.requests.filter((r) => r.path !== "/openapi.json")) {
        expect(contractRouteOf(req.method, req.path), `${req.method} ${req.path}`).toBeDefined();
        expect(req.method).not.toBe("DELETE");
        expect(req.path).not.toMatch(
          /^\/api\/(admin|service)\/|\/progress\/stream$|^\/api\/lifecycle\/check$|^\/api\/settings\/execution$/,
        );
      }
      expect(EXCLUDED_ROUTES.length).toBeGreaterThan(0);
    });

    it("no request reached a route this release lacks (counted per route)", () => {
      // Requests per contract route ("-" for one that is no contract route), with the line that has it.
      const perRoute = new Map<string, { since: ResmonLine | "-"; count: number }>();
      for (const req of kit.requests.filter((r) => r.path !== "/openapi.json")) {
        const route = contractRouteOf(req.method, req.path);
        const key = route ? `${route.method} ${route.path}` : `${req.method} ${req.path}`;
        const entry = perRoute.get(key) ?? { since: route ? routeSince(route) : "-", count: 0 };
        entry.count += 1;
        perRoute.set(key, entry);
      }
      const lacking = [...perRoute].filter(([, { since }]) => since === "-" || !onLine(since));
      expect(lacking).toEqual([]);
      // The stand-in answers a route its release lacks FastAPI's 404 without matching it: none of those.
      expect(kit.requests.filter((r) => r.route === null && r.status === 404).map((r) => r.path)).toEqual([]);
      // The suite reached most of what this release serves, so "none lacking" is not an empty claim.
      const served = ROUTES.filter((r) => onLine(routeSince(r))).length;
      expect(perRoute.size).toBeGreaterThan(served / 2);
    });

    it("no upstream_error is only a version gap: each came from a fault the test set", () => {
      expect(upstreamErrors.filter((e) => !e.faulted)).toEqual([]);
      // The 5xx and malformed-body faults were seen, so the record is live.
      expect(upstreamErrors.length).toBeGreaterThanOrEqual(2);
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
});
