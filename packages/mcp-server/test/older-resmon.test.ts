/**
 * Every tool against the stand-in as each resmon it supports (`--as 1.6`, `1.7`, `2.3`): each
 * answers within its contract or answers the version gap (conflict, not_in_this_resmon), never an
 * upstream_error that is only a version gap, and no request reaches a route that release lacks.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import {
  ARGUMENT_NEEDS,
  argumentFeatures,
  compareVersions,
  FEATURE_SINCE,
  NOT_IN_THIS_RESMON,
  newerRoutes,
  type ResmonFeature,
  ROUTES,
  routeShape,
  routeSince,
  TOOLS,
  toolNeeds,
} from "@resmon/mcp-contract";
import { FACTS, type Testkit } from "@resmon/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { thisResmon } from "../src/backend/this-resmon.js";
import type { ResmonTools } from "../src/server.js";
import { closeOlder, openOlder } from "./helpers/older-kit.js";

const LINES = ["1.6", "1.7", "2.3"] as const;
/** These two answer a scan's stored state whatever resmon is there (no up-front version refusal). */
const STORED_STATE = new Set(["scan_continue", "scan_verify", "scan_result"]);

type Envelope = { error: string; message: string; detail: Record<string, unknown> };

describe.each(LINES)("against the stand-in as resmon %s", (line) => {
  let kit: Testkit;
  let dir: string;
  let tools: ResmonTools;
  const outcomes = new Map<string, Awaited<ReturnType<ResmonTools["call"]>>>();

  beforeAll(async () => {
    ({ kit, dir, tools } = await openOlder(line, "older", { RESMON_MCP_SCAN_WAIT_MS: "200" }));
    for (const tool of TOOLS) outcomes.set(tool.name, await tools.call(tool.name, tool.example));
  }, 120_000);
  afterAll(async () => closeOlder({ kit, dir, tools }));

  it.each(TOOLS.map((t) => [t.name, t] as const))(
    "%s answers within its contract or says the version gap",
    (_n, tool) => {
      const outcome = outcomes.get(tool.name);
      expect(outcome).toBeDefined();
      if (!outcome) return;
      const needs = toolNeeds(tool);
      const tooOld = compareVersions(line, needs) < 0;
      if (outcome.ok) {
        // Answered (and checked against its output schema on the way out): only where it should.
        expect(tooOld && !STORED_STATE.has(tool.name), `${tool.name} answered on ${line}`).toBe(false);
        return;
      }
      const error = outcome.error as Envelope;
      expect(["upstream_error", "internal_error"], `${tool.name}: ${error.message}`).not.toContain(
        error.error,
      );
      const gap = error.error === "conflict" && error.detail.reason === NOT_IN_THIS_RESMON;
      if (tooOld && !STORED_STATE.has(tool.name)) {
        expect(gap, `${tool.name} on ${line}: ${error.error} ${error.message}`).toBe(true);
        expect(error.detail).toMatchObject({ resmon_version: kit.release.version, needs });
      }
      if (gap) expect(compareVersions(String(error.detail.needs), line)).toBeGreaterThan(0);
    },
  );

  /** Whether this release reports missed fires (2.3+): below it they are named, never made up. */
  const missedFiresServed = compareVersions(line, FEATURE_SINCE.missed_fires) >= 0;
  const notReported = (answer: Record<string, unknown>) => (answer.not_reported ?? []) as string[];

  it("list_routines and get_routine answer every routine, with missed fires only where resmon has them", () => {
    const list = outcomes.get("list_routines");
    expect(list?.ok, JSON.stringify(list)).toBe(true);
    if (!list?.ok) return;
    const rows = list.answer.routines as Record<string, unknown>[];
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(Object.hasOwn(row, "missed_fires"), JSON.stringify(row)).toBe(missedFiresServed);
      expect(notReported(row).includes("missed_fires"), JSON.stringify(row)).toBe(!missedFiresServed);
    }
    const detail = outcomes.get("get_routine");
    expect(detail?.ok, JSON.stringify(detail)).toBe(true);
    if (!detail?.ok) return;
    expect(detail.answer).toMatchObject({ id: 1, name: expect.any(String) });
    expect(Object.hasOwn(detail.answer, "missed_fires")).toBe(missedFiresServed);
    if (missedFiresServed) expect(notReported(detail.answer)).not.toContain("missed_fires");
    else
      expect(notReported(detail.answer)).toEqual(
        expect.arrayContaining(["missed_fires", "missed_fire_details"]),
      );
  });

  it("a routine without missed_fires is named not reported before 2.3 and upstream_error on 2.3", async () => {
    const stored = {
      id: 1,
      name: "Graph papers",
      schedule_cron: "0 8 * * *",
      parameters: '{"query": "graph", "repositories": ["arxiv"]}',
      is_active: 1,
      last_executed_at: null,
      last_status: null,
    };
    kit.setFault(
      "/api/routines",
      { kind: "status", status: 200, body: [stored] },
      { method: "GET", times: 1 },
    );
    const list = await tools.call("list_routines", {});
    const single = { kind: "status", status: 200, body: { ...stored, is_active: true } } as const;
    kit.setFault("/api/routines/{routine_id}", single, { method: "GET", times: 1 });
    const detail = await tools.call("get_routine", { routine_id: 1 });
    if (missedFiresServed) {
      expect(list).toMatchObject({
        ok: false,
        error: { error: "upstream_error", detail: { field: "routines.0.missed_fires" } },
      });
      expect(detail).toMatchObject({
        ok: false,
        error: { error: "upstream_error", detail: { field: "missed_fires" } },
      });
      return;
    }
    expect(list.ok && list.answer.routines).toEqual([
      {
        id: 1,
        name: "Graph papers",
        schedule: "0 8 * * *",
        sources: ["arxiv"],
        keywords: ["graph"],
        last_run: null,
        last_status: null,
        active: true,
        not_reported: ["missed_fires"],
      },
    ]);
    expect(detail.ok, JSON.stringify(detail)).toBe(true);
    if (!detail.ok) return;
    expect(detail.answer).not.toHaveProperty("missed_fires");
    expect(notReported(detail.answer)).toEqual(
      expect.arrayContaining(["missed_fires", "missed_fire_details"]),
    );
  });

  it("sent no request to a route this release lacks, and nothing it would have ignored", () => {
    const lacking = kit.requests.filter(
      (r) =>
        r.route !== null &&
        compareVersions(routeSince({ method: r.method as "GET", path: r.route }), line) > 0,
    );
    // The testkit answers a route its release lacks 404 Not Found without matching it: count those too.
    // Discovery's token-less health, which the guard refuses before any route, is not one either.
    const unrouted = kit.requests.filter(
      (r) =>
        r.route === null && r.path !== "/openapi.json" && !(r.path === "/api/health" && r.status === 401),
    );
    expect(lacking.map((r) => `${r.method} ${r.path}`)).toEqual([]);
    expect(unrouted.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([]);
    expect(kit.strictnessRefusals()).toBe(0);
    expect(kit.requests.length).toBeGreaterThan(10);
  });

  it("scan_start wrote nothing where it cannot sweep (its example sweeps; scan-older.test.ts runs a corpus scan)", () => {
    if (line === "2.3") return;
    const scans = join(dir, "scans");
    expect(existsSync(scans) ? readdirSync(scans) : []).toEqual([]);
  });

  it("read the route list once for this runtime id", () => {
    expect(kit.requests.filter((r) => r.path === "/openapi.json")).toHaveLength(1);
  });

  it("refuses an unknown source slug by name, with the known ones, before the search is sent", async () => {
    const before = kit.requests.length;
    const outcome = await tools.call("search_corpus", { query: "graph", sources: ["arxiv", "nosuch"] });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.error).toBe("invalid_argument");
    expect(outcome.error.detail).toMatchObject({ field: "sources", unknown: ["nosuch"] });
    expect(outcome.error.detail.known).toContain("arxiv");
    expect(outcome.error.message).toMatch(/nosuch.*arxiv/);
    expect(kit.requests.slice(before).filter((r) => r.path === "/api/explorer/search")).toEqual([]);
  });

  it.each(["run_sweep", "create_routine", "scan_start"] as const)(
    "%s refuses an unknown source slug before anything is sent",
    async (name) => {
      const tool = TOOLS.find((t) => t.name === name);
      const before = kit.requests.length;
      const example = { ...(tool?.example as Record<string, unknown>) };
      if (name === "scan_start") example.scan_id = "7d1c6a52-8a4e-4b7e-9d0f-2a9b8c7e6f51";
      const outcome = await tools.call(name, { ...example, sources: ["nosuch"] });
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      if (name === "scan_start" && line !== "2.3") {
        // The example sweeps, which an older resmon cannot: that is said first.
        expect(outcome.error.detail.reason).toBe(NOT_IN_THIS_RESMON);
      } else {
        expect(outcome.error).toMatchObject({ error: "invalid_argument", detail: { field: "sources" } });
      }
      const sent = kit.requests.slice(before).filter((r) => r.method !== "GET");
      expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual([]);
    },
  );
});

describe("on resmon 1.6 specifically", () => {
  let kit: Testkit;
  let dir: string;
  let tools: ResmonTools;
  beforeAll(async () => {
    ({ kit, dir, tools } = await openOlder("1.6", "older"));
  });
  afterAll(async () => closeOlder({ kit, dir, tools }));

  it("exports a run's references through the run's own export, the same text as by ids would give", async () => {
    const outcome = await tools.call("export_references", { exec_id: 1, format: "ris" });
    expect(outcome.ok, JSON.stringify(outcome)).toBe(true);
    const sent = kit.requests.filter((r) => r.path.startsWith("/api/executions/1/references"));
    expect(sent.map((r) => r.query.format)).toEqual(["ris"]);
  });

  it("refuses a JSON export as the version gap, sending nothing", async () => {
    const before = kit.requests.length;
    const outcome = await tools.call("export_references", { doc_ids: [1], format: "json" });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error).toMatchObject({
      error: "conflict",
      detail: { reason: NOT_IN_THIS_RESMON, feature: "json_export", needs: "2.3", resmon_version: "1.6.1" },
    });
    expect(kit.requests.slice(before).filter((r) => r.path.includes("export"))).toEqual([]);
  });

  it("names the run lineage and source coverage 1.6 does not record in not_reported", async () => {
    const outcome = await tools.call("get_execution", { exec_id: 1 });
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.answer.not_reported).toEqual(
      expect.arrayContaining(["interrupted_reason", "restarted_from", "coverage", "source_outcomes"]),
    );
    expect(outcome.answer).not.toHaveProperty("coverage");
    // The stand-in answered the row as 1.6 kept it: none of the columns later releases added.
    const reply = await fetch(`${kit.baseUrl}/api/executions/1`, {
      headers: { authorization: `Bearer ${kit.token}` },
    });
    const row = (await reply.json()) as Record<string, unknown>;
    for (const key of ["coverage", "source_outcomes", "request_id", "owner_pid", "dedup_total"])
      expect(row, key).not.toHaveProperty(key);
    expect(row).toHaveProperty("saved_configuration_name");
  });

  it("plays 1.6's health and routine rows: no embeddings capability, no intent", async () => {
    const get = async (path: string) =>
      (await (
        await fetch(`${kit.baseUrl}${path}`, { headers: { authorization: `Bearer ${kit.token}` } })
      ).json()) as unknown;
    expect(await get("/api/health")).not.toHaveProperty("embeddings");
    for (const row of (await get("/api/routines")) as object[]) expect(row).not.toHaveProperty("intent");
    const health = await tools.call("health", {});
    expect(health.ok && health.answer).not.toHaveProperty("embeddings");
  });

  it("update_settings refuses an ai setting 1.6 lacks as the version gap, sending no write", async () => {
    const before = kit.requests.length;
    const outcome = await tools.call("update_settings", { group: "ai", settings: { ai_effort: "high" } });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error).toMatchObject({
      error: "conflict",
      detail: { reason: NOT_IN_THIS_RESMON, feature: "ai_run_controls", needs: "2.3" },
    });
    expect(outcome.error.message).toMatch(/ai_effort/);
    expect(kit.requests.slice(before).filter((r) => r.method === "PUT")).toEqual([]);
    // A setting 1.6 has is written as on any resmon.
    const written = await tools.call("update_settings", { group: "ai", settings: { ai_temperature: "0.2" } });
    expect(written.ok, JSON.stringify(written)).toBe(true);
  });

  it("list_executions names each run's coverage not reported, never zero counts", async () => {
    const outcome = await tools.call("list_executions", {});
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    const rows = outcome.answer.executions as Record<string, unknown>[];
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row).not.toHaveProperty("coverage");
      expect(row.not_reported).toContain("coverage");
    }
  });

  it("search_corpus semantic answers the keyword results and says why, sending no sort", async () => {
    const outcome = await tools.call("search_corpus", { query: "graph", mode: "semantic" });
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.answer.mode).toBe("keyword");
    expect(String(outcome.answer.mode_unavailable)).toMatch(/1\.6\.1.*2\.3/);
    const sent = kit.requests.filter((r) => r.path === "/api/explorer/search");
    expect(sent.every((r) => !Object.hasOwn(r.body as object, "sort"))).toBe(true);
  });
});

describe.each(["1.6", "1.7"] as const)("each argument that needs a newer resmon, on %s", (line) => {
  let kit: Testkit;
  let dir: string;
  let tools: ResmonTools;
  beforeAll(async () => {
    ({ kit, dir, tools } = await openOlder(line, "argneeds"));
  });
  afterAll(async () => closeOlder({ kit, dir, tools }));

  /** The tool's example with the argument set so the rule applies. */
  function triggering(need: (typeof ARGUMENT_NEEDS)[number]): Record<string, unknown> {
    const tool = TOOLS.find((t) => t.name === need.tool);
    const args: Record<string, unknown> = { ...(tool?.example as Record<string, unknown>) };
    if (need.tool === "scan_start") args.scan_id = "0b7e2c1a-4d5f-4a8b-9c3d-6e7f8a9b0c1d";
    if ("values" in need.when) args[need.argument] = need.when.values[0];
    else if ("keys" in need.when) args[need.argument] = { [need.when.keys[0] ?? ""]: "1" };
    else args[need.argument] = "what the routine is for";
    return args;
  }

  it.each(ARGUMENT_NEEDS.map((n) => [`${n.tool} ${n.argument}`, n] as const))(
    "%s: the version gap naming the feature, nothing sent but reads",
    async (_label, need) => {
      const args = triggering(need);
      expect(argumentFeatures(need.tool, args)).toContain(need.feature);
      const before = kit.requests.length;
      const outcome = await tools.call(need.tool, args);
      expect(outcome.ok, JSON.stringify(outcome)).toBe(false);
      if (outcome.ok) return;
      expect(outcome.error).toMatchObject({
        error: "conflict",
        detail: { reason: NOT_IN_THIS_RESMON, feature: need.feature, needs: FEATURE_SINCE[need.feature] },
      });
      const sent = kit.requests.slice(before).filter((r) => r.method !== "GET");
      expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual([]);
      if (need.tool === "scan_start")
        expect(existsSync(join(dir, "scans")) ? readdirSync(join(dir, "scans")) : []).toEqual([]);
    },
  );
});

describe("this resmon's line", () => {
  const watchdog = { method: "GET", path: "/api/watchdog" } as const;
  const profiles = { method: "GET", path: "/api/profiles" } as const;
  it("comes from its route list, not its version string (resmon's 1.7 work still said 1.6.1)", () => {
    const routes = new Set(
      ROUTES.filter((r) => routeSince(r) !== "2.3").map((r) => routeShape(r.method, r.path)),
    );
    const r = thisResmon({ version: "1.6.1" }, null, routes);
    expect(r.line).toBe("1.7");
    expect(r.serves(watchdog)).toBe(true);
    expect(r.serves(profiles)).toBe(false);
  });
  it("falls back to the version table without a route list (1.8.3 is the 2.3 backend's own string)", () => {
    expect(thisResmon({ version: "1.6.1" }, null, null).serves(watchdog)).toBe(false);
    expect(thisResmon({ version: "1.7.2" }, null, null).serves(watchdog)).toBe(true);
    expect(thisResmon({ version: "1.8.3" }, null, null).line).toBe("2.3");
    expect(thisResmon({}, null, null).routesFrom).toBe("assumed");
  });
});

describe("the stand-in's release table and the contract's", () => {
  it("give every route and feature the same first version", () => {
    for (const fact of FACTS) {
      const since = Object.hasOwn(FEATURE_SINCE, fact.what)
        ? FEATURE_SINCE[fact.what as ResmonFeature]
        : routeSince({ method: fact.what.split(" ")[0] as "GET", path: fact.what.split(" ")[1] ?? "" });
      expect(since, fact.what).toBe(fact.since);
      expect(fact.readAt, fact.what).toMatch(/^[0-9a-f]{40}$/);
    }
    const facts = new Set(FACTS.map((f) => f.what));
    for (const [shape] of newerRoutes()) expect(facts.has(shape), shape).toBe(true);
    for (const feature of Object.keys(FEATURE_SINCE)) expect(facts.has(feature), feature).toBe(true);
  });
});
