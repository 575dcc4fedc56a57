import { TOOL_BY_NAME, type ToolName } from "@resmon/mcp-contract";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { fakeDiscover, type SeenRequest } from "./helpers/fake-backend.js";
import { connectInMemory, isError, parsed } from "./helpers/mcp.js";
import { sampleResponder } from "./helpers/sample-backend.js";
import { HAVE_SAMPLES, sample } from "./helpers/samples.js";

/**
 * Every tool against what the real backend answered (../shared/resmon/samples): the answer must be
 * the tool's documented success shape (the SDK client validates structuredContent against the
 * advertised output schema too) and the requests must be the ones the spec names.
 */
let overrides: Record<string, string> = {};
const fake = fakeDiscover((req) => sampleResponder(overrides)(req));
let session: Awaited<ReturnType<typeof connectInMemory>>;

beforeAll(async () => {
  session = await connectInMemory({ env: {}, discoverFn: fake.discoverFn });
});
afterAll(async () => session?.close());
beforeEach(() => {
  fake.seen.length = 0;
  overrides = {};
});

async function ok(name: ToolName, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = await session.client.callTool({ name, arguments: args });
  const body = parsed(result);
  expect(isError(result), JSON.stringify(body)).toBe(false);
  expect(TOOL_BY_NAME[name].output.safeParse(body).success).toBe(true);
  expect((result as { structuredContent?: unknown }).structuredContent).toEqual(body);
  return body;
}

const sent = (): string[] => fake.seen.map((r: SeenRequest) => `${r.method} ${r.path}`);

describe.skipIf(!HAVE_SAMPLES)("every tool on the real backend's answers", () => {
  it("health", async () => {
    const body = await ok("health", {});
    expect(body).toMatchObject({ status: "ok", version: "1.8.3", schema_version: 21 });
    expect(body.identity).toMatchObject({ contract_version: 1 });
  });

  it("search_corpus keyword: compact papers, mode, cursor; never `include`", async () => {
    const body = await ok("search_corpus", { query: "diffusion" });
    expect(body.mode).toBe("keyword");
    const papers = body.papers as Record<string, unknown>[];
    expect(Object.keys(papers[0] ?? {}).sort()).toEqual([
      "authors",
      "date",
      "doi",
      "id",
      "source",
      "title",
      "url",
    ]);
    expect(fake.seen[0]?.body).toEqual({ query: "diffusion", limit: 25, sort: "newest" });
  });

  it("search_corpus semantic that resmon declined says so", async () => {
    overrides = { "POST /api/explorer/search": "POST__api_explorer_search.similarity" };
    const body = await ok("search_corpus", { query: "x", mode: "semantic", limit: 5 });
    expect(body.mode).toBe("keyword");
    expect(body.mode_unavailable).toMatch(/No embedding model/);
    expect(fake.seen[0]?.body).toMatchObject({ sort: "similarity", limit: 5 });
  });

  it("find_similar carries the backend's reason with an empty list", async () => {
    const body = await ok("find_similar", { doc_id: 1, limit: 5 });
    expect(body.papers).toEqual([]);
    expect(body.reason).toMatch(/Nothing is embedded/);
    expect(fake.seen[0]?.query).toEqual({ k: 5 });
  });

  it("list_sources: alias and presence, never a value or a notice", async () => {
    const body = await ok("list_sources", {});
    const sources = body.sources as Record<string, unknown>[];
    expect(sources.length).toBeGreaterThan(5);
    const pubmed = sources.find((s) => s.credential_alias === "pubmed_api_key");
    expect(pubmed?.credential_status).toBe("absent");
    expect(JSON.stringify(body)).not.toMatch(/endpoint|notices|default_start_days/);
    expect(sent()).toEqual(["GET /api/repositories/catalog", "GET /api/credentials"]);
  });

  it("list_routines: sources as resmon's dispatcher will use them, keywords and missed_fires from the stored row", async () => {
    const body = await ok("list_routines", {});
    const routines = body.routines as Record<string, unknown>[];
    const turbulence = routines.find((r) => r.id === 1);
    // The stored string is one keyword, as resmon keeps it: never split on its spaces. resmon's own
    // fixture stores the sources under `sources`, which its dispatcher does not read (it reads
    // `repositories`): a run of it searches nothing, so no source is claimed and the note says why.
    expect(turbulence).toMatchObject({
      sources: [],
      keywords: ["diffusion turbulence"],
      active: true,
      missed_fires: { count: 2 },
    });
    expect(turbulence?.sources_note).toContain(
      '`sources` (["arxiv","openalex"]), a key resmon does not read',
    );
  });

  it("get_routine 2 does not claim europepmc, which resmon's run of it never searches (issue 41 point 8)", async () => {
    overrides = { "GET /api/routines/{routine_id}": "GET__api_routines_{routine_id}.2" };
    const body = await ok("get_routine", { routine_id: 2 });
    expect(body.sources).toEqual([]);
    expect(body.sources_note).toContain('`sources` (["europepmc"])');
  });

  it("get_routine: coverage totals, delivery summary, no address, directory or URL", async () => {
    const body = await ok("get_routine", { routine_id: 1 });
    expect(body.missed_fire_details).toHaveLength(2);
    expect(body.coverage).toMatchObject({
      off_target_count: 0,
      missed_in_corpus_count: 0,
      missed_in_corpus_count_is_lower_bound: false,
      measured_against: "stated",
    });
    // Only the channels resmon counted: it named no feed, so there is no feed count of 0.
    expect(body.delivery).toEqual({
      targets_by_channel: { email: 1, folder: 1, webhook: 1 },
      enabled_target_count: 3,
      awaiting_review: 1,
      last_state: "awaiting_review",
      last_channel: "webhook",
      last_attempts: 0,
      last_error: null,
      last_delivered_at_utc: null,
    });
    expect(JSON.stringify(body.delivery)).not.toMatch(/example\.org|\/does\/not/);
  });

  it("get_routine leaves delivery off (not zeroed) when the deliveries route cannot answer", async () => {
    overrides = {
      "GET /api/routines/{routine_id}/deliveries": "GET__api_routines_{routine_id}_deliveries.404",
    };
    const body = await ok("get_routine", { routine_id: 1 });
    expect(body).not.toHaveProperty("delivery");
    expect(body.not_reported).toEqual(["delivery"]);
  });

  it("get_routine's routine 2 counts the feed resmon reported, and no email", async () => {
    overrides = {
      "GET /api/routines/{routine_id}": "GET__api_routines_{routine_id}.2",
      "GET /api/routines/{routine_id}/deliveries": "GET__api_routines_{routine_id}_deliveries.2",
    };
    const body = await ok("get_routine", { routine_id: 2 });
    expect((body.delivery as Record<string, unknown>).targets_by_channel).toEqual({
      feed: 1,
      folder: 1,
      webhook: 1,
    });
    expect(body.keywords).toEqual(["retraction"]);
  });

  it("list_executions projects the fixed key set, interrupted_reason and restarted_from included", async () => {
    const body = await ok("list_executions", { limit: 3 });
    const rows = body.executions as Record<string, unknown>[];
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(Object.keys(row)).toEqual(
        expect.arrayContaining([
          "id",
          "type",
          "status",
          "started",
          "finished",
          "result_count",
          "interrupted_reason",
          "restarted_from",
        ]),
      );
      // resmon's coverage counts, as it said them (issue 23): a zero with unknown sources is not "no papers".
      const listed = ["GET__api_executions", "GET__api_executions.no-limit"].flatMap(
        (f) => sample(f).response.body as Record<string, unknown>[],
      );
      const real = listed.find((r) => r.id === row.id);
      expect(row.coverage).toEqual({ counts: (real?.coverage as { counts: unknown } | undefined)?.counts });
    }
    expect(fake.seen[0]?.query).toEqual({ limit: 4, offset: 0 });
  });

  it("list_executions filters by status across resmon's pages and says it filtered here", async () => {
    const body = await ok("list_executions", { status: "interrupted" });
    const rows = body.executions as Record<string, unknown>[];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.status === "interrupted")).toBe(true);
    expect(body).toMatchObject({ filtered_here: true, total: rows.length, has_more: false });
    expect(fake.seen.every((r) => !("status" in r.query) && !("routine_id" in r.query))).toBe(true);
  });

  it("get_execution: the row whole minus progress_events, plus last event and count", async () => {
    const body = await ok("get_execution", { exec_id: 1 });
    expect(body).not.toHaveProperty("progress_events");
    expect(body).toMatchObject({
      event_count: 3,
      last_event: { stage: "dedup", removed: 1 },
      restarted_into: [],
    });
    expect(body.parameters).toEqual({ keywords: "diffusion", index: 0 });
    expect(body.coverage).toBeDefined();
    // The spec promises the AI lane; resmon's 2.3 row carries none, so the answer says so.
    expect(body.not_reported).toEqual(["ai_lane"]);
  });

  it("get_execution_results reads the ID-bearing JSON export and pages it", async () => {
    const body = await ok("get_execution_results", { exec_id: 1, limit: 2 });
    expect((body.papers as { id: number }[]).map((p) => p.id)).toEqual([8, 2]);
    expect(body).toMatchObject({ total: 3, has_more: true, next_offset: 2 });
    expect(fake.seen[0]?.query).toEqual({ format: "json", include_ids: true });
  });

  it("get_search_record, explain_match, get_paper_lifecycle pass resmon's answer through", async () => {
    const record = await ok("get_search_record", { exec_id: 1 });
    expect(record).toHaveProperty("search");
    const why = await ok("explain_match", { doc_id: 1 });
    expect((why.what_resmon_cannot_see as string[]).length).toBeGreaterThan(0);
    const life = await ok("get_paper_lifecycle", { doc_id: 7 });
    expect((life.events as unknown[]).length).toBe(2);
  });

  it.each([["overview"], ["volume"], ["sources"], ["keywords"], ["routine-health"], ["discovery-lag"]])(
    "get_analytics %s maps to its route",
    async (view) => {
      const body = await ok("get_analytics", { view });
      expect(body.view).toBe(view);
      expect(fake.seen).toHaveLength(1);
      expect(fake.seen[0]?.query).toEqual({});
    },
  );

  it("get_analytics volume applies window as publication-volume's months", async () => {
    const body = await ok("get_analytics", { view: "volume", window: 6 });
    expect(body).toMatchObject({ window_applied: true, window_months: 6 });
    expect(fake.seen[0]?.query).toEqual({ months: 6 });
  });

  it("get_watchdog_findings passes findings through and says include_muted was not applied", async () => {
    const body = await ok("get_watchdog_findings", { include_muted: true });
    expect(body).toHaveProperty("thresholds");
    expect(body.include_muted_applied).toBe(false);
    expect(fake.seen[0]?.query).toEqual({});
  });

  it.each([["bibtex"], ["ris"], ["csv"], ["json"]])(
    "export_references %s for an execution",
    async (format) => {
      const body = await ok("export_references", { exec_id: 1, format });
      expect(typeof body.text).toBe("string");
      expect(fake.seen.map((r) => `${r.method} ${r.path}`)).toEqual([
        "GET /api/executions/{exec_id}",
        "POST /api/export/references",
      ]);
      expect(fake.seen[1]?.body).toEqual({ execution_ids: [1], format });
    },
  );

  it("export_references for an unknown run is not_found, and nothing is exported", async () => {
    const f = fakeDiscover(
      sampleResponder({ "GET /api/executions/{exec_id}": "GET__api_executions_{exec_id}.404" }),
    );
    const s = await connectInMemory({ env: {}, discoverFn: f.discoverFn });
    try {
      const result = await s.client.callTool({
        name: "export_references",
        arguments: { exec_id: 999, format: "ris" },
      });
      expect(isError(result)).toBe(true);
      expect(parsed(result).error).toBe("not_found");
      expect(f.seen.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /api/executions/{exec_id}"]);
    } finally {
      await s.close();
    }
  });

  it("export_references for chosen papers posts document_ids", async () => {
    const body = await ok("export_references", { doc_ids: [1, 2], format: "ris" });
    expect(body.text).toMatch(/TY {2}-/);
    expect(fake.seen[0]?.body).toEqual({ document_ids: [1, 2], format: "ris" });
  });

  it("list_watch_profiles keeps basis_warning on every row", async () => {
    const body = await ok("list_watch_profiles", {});
    const rows = body.profiles as Record<string, unknown>[];
    expect(rows.every((r) => "basis_warning" in r)).toBe(true);
    expect(rows.find((r) => r.id === 1)).toMatchObject({
      orcid: "0000-0002-1825-0097",
      identifier_schemes: ["orcid"],
    });
  });

  it("get_watch_profile adds the match total and per-basis counts from one row", async () => {
    const body = await ok("get_watch_profile", { profile_id: 1 });
    expect(body).toMatchObject({ match_total: 2, by_basis: { identifier: 1, name_only: 1 } });
    expect(fake.seen[1]?.query).toEqual({ limit: 1 });
  });

  it("get_profile_matches: basis, matched author and evidence on every match, plus the glossary", async () => {
    const body = await ok("get_profile_matches", { profile_id: 1 });
    for (const m of body.matches as Record<string, unknown>[]) {
      expect(Object.keys(m)).toEqual(expect.arrayContaining(["basis", "matched_author", "evidence"]));
    }
    expect(Object.keys(body.what_a_basis_means as object)).toEqual([
      "identifier",
      "name+affiliation",
      "name_only",
    ]);
  });

  it("run_sweep returns the execution id and sends no date_from it was not given", async () => {
    const body = await ok("run_sweep", { query: "graph", sources: ["arxiv"] });
    expect(body.execution_id).toBe(11);
    expect(body.detail).toMatch(/interrupted/);
    // The catalog is read first (the slugs are checked), then the sweep is sent.
    expect(fake.seen.map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /api/repositories/catalog",
      "POST /api/search/sweep",
    ]);
    expect(fake.seen[1]?.body).toEqual({ query: "graph", repositories: ["arxiv"] });
  });

  it("create_routine creates inactive, omits intent, reads the record back", async () => {
    overrides = { "GET /api/routines/{routine_id}": "GET__api_routines_{routine_id}.created" };
    const body = await ok("create_routine", {
      name: "Sample",
      keywords: ["graph", "neural", "network"],
      sources: ["arxiv"],
      schedule: "0 6 * * 1",
    });
    expect(fake.seen[0]?.body).toEqual({
      name: "Sample",
      schedule_cron: "0 6 * * 1",
      parameters: { query: "graph neural network", repositories: ["arxiv"] },
      is_active: false,
    });
    expect(sent()).toEqual(["POST /api/routines", "GET /api/routines/{routine_id}"]);
    expect(body.routine).toMatchObject({ id: 4, is_active: false });
  });

  it("create_watch_profile lifts basis_warning to the top and repeats it in detail", async () => {
    const body = await ok("create_watch_profile", { name: "Jane Doe" });
    expect(Object.keys(body)[0]).toBe("basis_warning");
    expect(body.detail).toEqual({ basis_warning: body.basis_warning });
    expect(fake.seen[0]?.body).toEqual({
      kind: "person",
      display_name: "Jane Doe",
      names: [{ value: "Jane Doe" }],
      identifiers: {},
      affiliations: [],
      field_hints: [],
    });
  });

  it("run_routine started, including an inactive routine", async () => {
    const body = await ok("run_routine", { routine_id: 4 });
    expect(body).toMatchObject({
      execution_id: 10,
      queued: false,
      was_inactive: true,
      missed_fires_marked_ran_late: 0,
    });
    expect(body).not.toHaveProperty("not_reported");
  });

  it("activate_routine / deactivate_routine answer {id, is_active}", async () => {
    expect(await ok("activate_routine", { routine_id: 4 })).toEqual({ id: 4, is_active: true });
    expect(await ok("deactivate_routine", { routine_id: 4 })).toEqual({ id: 4, is_active: false });
  });

  it("update_settings answers the diff of two real reads", async () => {
    let reads = 0;
    overrides = {};
    const body = await (async () => {
      const respond = sampleResponder();
      const f = fakeDiscover((req) => {
        if (req.method === "GET" && req.path === "/api/settings/storage") {
          reads += 1;
          return respond({ ...req, path: reads === 1 ? req.path : "/api/settings/storage-after" });
        }
        return respond(req);
      });
      const s = await connectInMemory({ env: {}, discoverFn: f.discoverFn });
      const result = await s.client.callTool({
        name: "update_settings",
        arguments: { group: "storage", settings: { pdf_policy: "archive" } },
      });
      await s.close();
      expect(f.seen.map((r) => `${r.method} ${r.path}`)).toEqual([
        "GET /api/settings/storage",
        "PUT /api/settings/storage",
        "GET /api/settings/storage",
      ]);
      expect(f.seen[1]?.body).toEqual({ settings: { pdf_policy: "archive" } });
      return parsed(result);
    })();
    expect(body).toEqual({
      group: "storage",
      changed: { pdf_policy: { from: "", to: "archive" } },
      requested: { pdf_policy: "archive" },
      unchanged_key_count: 3,
    });
  });
});
