/**
 * Every answer field is what resmon said, or is marked not reported: never a null, zero, empty list
 * or empty object standing in for something resmon did not send (issue 15). Each case is a reply a
 * broken or older backend could give; the real backend's own answers are in tools-on-samples.
 */
import { describe, expect, it } from "vitest";
import { MAX_ECHO_CHARS } from "../src/errors.js";
import { type FakeReply, RUN_RECORD_23, type SeenRequest } from "./helpers/fake-backend.js";
import { useFakeSession } from "./helpers/fake-session.js";

let reply: (req: SeenRequest) => FakeReply = () => ({ status: 200, body: {} });
const { fake, call } = useFakeSession((req) => reply(req));
const sent = () => fake.seen.map((r) => r.method);

const NOTIFICATIONS = { notify_manual: true, notify_automatic_mode: "none" };
const STORAGE = { pdf_policy: "", txt_policy: "", archive_after_days: "", export_directory: "" };

describe("update_settings when resmon's reads are malformed", () => {
  it.each([
    ["a string", "oops"],
    ["a list", [["pdf_policy", ""]]],
    ["null", null],
  ])("a group GET that is %s is upstream_error, not the caller's unknown key", async (_what, body) => {
    reply = () => ({ status: 200, body });
    const { body: answer } = await call("update_settings", {
      group: "storage",
      settings: { pdf_policy: "archive" },
    });
    expect(answer.error).toBe("upstream_error");
    expect(sent()).toEqual(["GET"]);
  });

  it("an embeddings GET without its nested settings is upstream_error", async () => {
    reply = () => ({ status: 200, body: { providers: [] } });
    const { body } = await call("update_settings", {
      group: "embeddings",
      settings: { embedding_model: "m" },
    });
    expect(body.error).toBe("upstream_error");
    expect(sent()).toEqual(["GET"]);
  });

  it("after a real PUT, a malformed read-back says the write was sent and reports no change", async () => {
    let reads = 0;
    reply = (req) => {
      if (req.method === "PUT") return { status: 200, body: { success: true } };
      reads += 1;
      return { status: 200, body: reads === 1 ? STORAGE : "<html>busy</html>" };
    };
    const { error, body } = await call("update_settings", {
      group: "storage",
      settings: { pdf_policy: "archive" },
    });
    expect(sent()).toEqual(["GET", "PUT", "GET"]);
    expect(error).toBe(true);
    expect(body).toMatchObject({
      error: "upstream_error",
      detail: { written: true, after: "not_reported", requested: { pdf_policy: "archive" } },
    });
    expect(body.message).toMatch(/accepted the write.*not reported/);
    // Nothing about any key's new value, and never the withheld export_directory "changed to null".
    expect(JSON.stringify(body)).not.toMatch(/"changed"|export_directory/);
  });

  it("a read-back that fails outright also says the write was sent", async () => {
    let reads = 0;
    reply = (req) => {
      if (req.method === "PUT") return { status: 200, body: { success: true } };
      reads += 1;
      return reads === 1 ? { status: 200, body: STORAGE } : { status: 500, body: { detail: "locked" } };
    };
    const { body } = await call("update_settings", { group: "storage", settings: { pdf_policy: "archive" } });
    expect(body).toMatchObject({ error: "upstream_error", detail: { written: true } });
    expect(body.message).toMatch(/accepted the write/);
  });

  it("a key only one read carried is named as not reported, not changed to or from null", async () => {
    let reads = 0;
    reply = (req) => {
      if (req.method === "PUT") return { status: 200, body: { success: true } };
      reads += 1;
      if (reads === 1) return { status: 200, body: STORAGE };
      const { export_directory: _gone, ...rest } = STORAGE;
      return { status: 200, body: { ...rest, pdf_policy: "archive" } };
    };
    const { error, body } = await call("update_settings", {
      group: "storage",
      settings: { pdf_policy: "archive" },
    });
    expect(error).toBe(false);
    expect(body).toEqual({
      group: "storage",
      changed: { pdf_policy: { from: "", to: "archive" } },
      requested: { pdf_policy: "archive" },
      unchanged_key_count: 2,
      not_reported: ["export_directory"],
    });
  });

  it.each([["true\n"], [" true"], ["false "], ["\tFALSE"]])(
    "refuses %j for a yes/no setting: exactly true or false, no trimming",
    async (value) => {
      reply = () => ({ status: 200, body: NOTIFICATIONS });
      const { body } = await call("update_settings", {
        group: "notifications",
        settings: { notify_manual: value },
      });
      expect(body).toMatchObject({ error: "invalid_argument", detail: { field: "settings.notify_manual" } });
      expect(sent()).toEqual(["GET"]);
    },
  );
});

describe("run_routine and run_sweep when resmon admits a run without its id", () => {
  it("run_routine: not a failure, execution_id marked not reported, a retry warned against", async () => {
    reply = () => ({
      status: 200,
      body: { routine_id: 4, was_inactive: true, missed_fires_marked_ran_late: 2 },
    });
    const { error, body } = await call("run_routine", { routine_id: 4 });
    expect(error).toBe(false);
    expect(body).toMatchObject({
      routine_id: 4,
      execution_id: null,
      not_reported: ["execution_id", "queued"],
      was_inactive: true,
      missed_fires_marked_ran_late: 2,
    });
    // Whether it was queued is not known either, so it is not claimed.
    expect(body).not.toHaveProperty("queued");
    expect(body.detail).toMatch(/do not call run_routine again/);
  });

  it("run_routine: an id that is not an integer is not passed on as one", async () => {
    reply = () => ({ status: 200, body: { execution_id: "10" } });
    const { error, body } = await call("run_routine", { routine_id: 4 });
    expect(error).toBe(false);
    expect(body).toMatchObject({ execution_id: null, not_reported: ["execution_id", "queued"] });
  });

  it("run_sweep: an admitted sweep without an id says it was admitted and must not be repeated", async () => {
    reply = () => ({ status: 200, body: {} });
    const { body } = await call("run_sweep", { query: "graph", sources: ["arxiv"] });
    expect(body).toMatchObject({
      error: "upstream_error",
      detail: { admitted: true, not_reported: ["execution_id"] },
    });
    expect(body.message).toMatch(/admitted the sweep.*do not call run_sweep again/);
  });
});

describe("run_sweep bounds max_results before any request", () => {
  it.each([[2 ** 53 - 1], [1001]])("refuses max_results %d, naming the field", async (max) => {
    const { body } = await call("run_sweep", { query: "graph", sources: ["arxiv"], max_results: max });
    expect(body).toMatchObject({ error: "invalid_argument", detail: { field: "max_results" } });
    expect(fake.seen).toHaveLength(0);
  });

  it("sends 1000, the bound itself", async () => {
    reply = () => ({ status: 200, body: { execution_id: 3 } });
    const { error } = await call("run_sweep", { query: "graph", sources: ["arxiv"], max_results: 1000 });
    expect(error).toBe(false);
    expect(fake.seen[0]?.body).toMatchObject({ max_results: 1000 });
  });
});

describe("reads that must not fill in what resmon did not send", () => {
  it.each([[""], ["   "], ["\n"]])(
    "get_execution_results: a reply of %j is upstream_error, not papers: []",
    async (text) => {
      reply = () => ({ status: 200, body: text });
      const { body } = await call("get_execution_results", { exec_id: 1 });
      expect(body.error).toBe("upstream_error");
    },
  );

  it("get_execution_results: resmon's own [] is an empty page", async () => {
    reply = () => ({ status: 200, body: [] });
    const { error, body } = await call("get_execution_results", { exec_id: 6 });
    expect(error).toBe(false);
    expect(body).toMatchObject({ papers: [], total: 0 });
  });

  it("get_watch_profile without per-basis counts is upstream_error naming by_basis, never {}", async () => {
    reply = (req) =>
      req.path.endsWith("/matches")
        ? { status: 200, body: { matches: [], total: 2 } }
        : { status: 200, body: { id: 1, kind: "person", basis_warning: null } };
    const { body } = await call("get_watch_profile", { profile_id: 1 });
    expect(body).toMatchObject({ error: "upstream_error", detail: { field: "by_basis" } });
  });

  it("get_profile_matches without per-basis counts is upstream_error naming by_basis, never {}", async () => {
    reply = () => ({ status: 200, body: { matches: [], total: 0 } });
    const { body } = await call("get_profile_matches", { profile_id: 1 });
    expect(body).toMatchObject({ error: "upstream_error", detail: { field: "by_basis" } });
  });

  it.each(["coverage", "source_outcomes", "restarted_into"] as const)(
    "get_execution refuses a 2.3 run without %s (upstream_error naming it), not 'not reported'",
    async (key) => {
      const { [key]: _dropped, ...rest } = RUN_RECORD_23;
      reply = () => ({ status: 200, body: { id: 3, status: "completed", ...rest } });
      const { error, body } = await call("get_execution", { exec_id: 3 });
      expect(error).toBe(true);
      expect(body).toMatchObject({ error: "upstream_error", detail: { field: key } });
    },
  );

  it("get_execution passes an AI lane resmon reports, and marks an event log it did not send", async () => {
    reply = () => ({
      status: 200,
      body: { id: 3, status: "completed", ...RUN_RECORD_23, ai_lane: { provider: "local", model: "m" } },
    });
    const { error, body } = await call("get_execution", { exec_id: 3 });
    expect(error).toBe(false);
    expect(body.ai_lane).toEqual({ provider: "local", model: "m" });
    expect(body).not.toHaveProperty("event_count");
    expect(body.not_reported).toEqual(["last_event", "event_count"]);
  });

  it("get_routine: a summary without its counts leaves delivery off; a coverage flag not sent is not false", async () => {
    reply = (req) => {
      if (req.path.endsWith("/deliveries")) {
        return { status: 200, body: { routine_id: 1, deliveries: [], summary: { targets: { email: 1 } } } };
      }
      if (req.path.endsWith("/coverage")) return { status: 200, body: { intent: "x", results: 4 } };
      return {
        status: 200,
        body: {
          id: 1,
          name: "R",
          schedule_cron: "0 8 * * *",
          is_active: true,
          parameters: '{"query": "machine learning", "repositories": ["arxiv"]}',
          missed_fires: { count: 0, last_due_at_utc: null },
          missed_fire_details: [],
        },
      };
    };
    const { error, body } = await call("get_routine", { routine_id: 1 });
    expect(error).toBe(false);
    expect(body).not.toHaveProperty("delivery");
    expect(body.not_reported).toEqual(["delivery"]);
    expect(body.keywords).toEqual(["machine learning"]);
    const coverage = body.coverage as Record<string, unknown>;
    expect(coverage).toMatchObject({ intent: "x", results: 4 });
    expect(coverage).not.toHaveProperty("missed_in_corpus_count_is_lower_bound");
    expect(coverage.not_reported).toEqual(
      expect.arrayContaining(["missed_in_corpus_count_is_lower_bound", "off_target", "off_target_count"]),
    );
  });

  it("get_routine: a delivery summary without `last` marks it not reported", async () => {
    reply = (req) =>
      req.path.endsWith("/deliveries")
        ? {
            status: 200,
            body: { summary: { targets: { feed: 2 }, enabled_target_count: 2, awaiting_review: 0 } },
          }
        : {
            status: 200,
            body: { id: 1, name: "R", is_active: 1, missed_fires: { count: 0, last_due_at_utc: null } },
          };
    const { body } = await call("get_routine", { routine_id: 1 });
    expect(body.delivery).toMatchObject({ targets_by_channel: { feed: 2 }, not_reported: ["last"] });
  });

  it("list_routines: a row without is_active or missed_fires is refused, not reported inactive with 0", async () => {
    reply = () => ({ status: 200, body: [{ id: 1, name: "R", parameters: '{"query": "x"}' }] });
    const { body } = await call("list_routines", {});
    expect(body.error).toBe("upstream_error");
  });

  it("deactivate_routine: an answer without is_active is refused, not reported as deactivated", async () => {
    reply = () => ({ status: 200, body: { id: 4 } });
    const { body } = await call("deactivate_routine", { routine_id: 4 });
    expect(body).toMatchObject({ error: "upstream_error", detail: { field: "is_active" } });
  });

  it("search_corpus: has_more and total resmon did not send are not reported, not false and null", async () => {
    reply = () => ({ status: 200, body: { results: [], next_cursor: null, sort: "newest" } });
    const { error, body } = await call("search_corpus", { query: "x" });
    expect(error).toBe(false);
    expect(body).not.toHaveProperty("has_more");
    expect(body.not_reported).toEqual(["has_more", "total", "total_is_capped"]);
  });

  it("list_watch_profiles: names, identifiers and affiliations a record lacks are not reported, not empty", async () => {
    reply = () => ({
      status: 200,
      body: { profiles: [{ id: 4, kind: "group", display_name: "Lab", basis_warning: "names only" }] },
    });
    const { error, body } = await call("list_watch_profiles", {});
    expect(error).toBe(false);
    const [row] = body.profiles as Record<string, unknown>[];
    expect(row).not.toHaveProperty("aliases");
    expect(row).not.toHaveProperty("orcid");
    expect(row?.not_reported).toEqual(["aliases", "identifier_schemes", "orcid", "affiliations"]);
  });

  it("get_profile_matches: without resmon's total, the answer says the total is not reported", async () => {
    reply = () => ({ status: 200, body: { matches: [], by_basis: {} } });
    const { error, body } = await call("get_profile_matches", { profile_id: 1 });
    expect(error).toBe(false);
    expect(body).not.toHaveProperty("total");
    expect(body.not_reported).toEqual(["total"]);
  });

  it("health: a status resmon did not send is not reported, not null", async () => {
    reply = () => ({ status: 200, body: { version: "1.8.3", scheduler: {}, daemon: {} } });
    const { error, body } = await call("health", {});
    expect(error).toBe(false);
    expect(body).not.toHaveProperty("status");
    expect(body.not_reported).toEqual(["status"]);
  });

  it("find_similar: a model resmon did not name is not reported, not null", async () => {
    reply = () => ({ status: 200, body: { document_id: 1, neighbours: [], reason: "Nothing is embedded." } });
    const { error, body } = await call("find_similar", { doc_id: 1 });
    expect(error).toBe(false);
    expect(body).not.toHaveProperty("model");
    expect(body.not_reported).toEqual(["model"]);
  });

  it("list_sources: a source whose key requirement resmon did not state is refused, not 'no key needed'", async () => {
    reply = (req) =>
      req.path === "/api/credentials"
        ? { status: 200, body: { credentials: {} } }
        : { status: 200, body: [{ slug: "arxiv", name: "arXiv" }] };
    const { body } = await call("list_sources", {});
    expect(body).toMatchObject({ error: "upstream_error", detail: { field: "sources.0.key_required" } });
  });
});

describe("errors echo a bounded amount of caller input", () => {
  it("a 200 kB cursor resmon repeats in its refusal comes back cut to the bound", async () => {
    const cursor = "c".repeat(200_000);
    reply = () => ({ status: 400, body: { detail: `Malformed cursor: '${cursor}'` } });
    const { body } = await call("search_corpus", { query: "x", cursor });
    expect(body.error).toBe("invalid_argument");
    const text = JSON.stringify(body);
    expect(text.length).toBeLessThan(MAX_ECHO_CHARS + 500);
    expect(body.message).toMatch(/^Malformed cursor: 'c+… \(\d+ more characters not shown\)$/);
  });

  it("a 200 kB tool name is cut too", async () => {
    const { body } = await call(`x${"y".repeat(200_000)}`, {});
    expect(body.error).toBe("invalid_argument");
    expect(JSON.stringify(body).length).toBeLessThan(3 * MAX_ECHO_CHARS + 500);
  });
});
