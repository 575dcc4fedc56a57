import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Testkit } from "../src/index.js";
import { arr, call, obj, sleep, startKit } from "./helpers.js";

let kit: Testkit;
let done: () => Promise<void>;
beforeEach(async () => {
  ({ kit, done } = await startKit());
});
afterEach(async () => done());

async function waitFor(id: unknown, status: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 300; i++) {
    const e = obj((await call(kit, "GET", `/api/executions/${String(id)}`)).json);
    if (e.status === status) return e;
    await sleep(20);
  }
  throw new Error(`execution ${String(id)} never reached ${status}`);
}

describe("runs, admission and the routine fire queue", () => {
  it("a sweep creates an execution that moves from running to completed", async () => {
    kit.setAdmission({ runDurationMs: 800 });
    const started = await call(kit, "POST", "/api/search/sweep", {
      query: "protein",
      repositories: ["biorxiv", "pubmed"],
    });
    expect(started.status).toBe(200);
    const id = obj(started.json).execution_id;
    const running = obj((await call(kit, "GET", `/api/executions/${String(id)}`)).json);
    expect(running.status).toBe("running");
    expect(running.owner_runtime_id).toBe(kit.runtimeId);
    const finished = await waitFor(id, "completed");
    expect(finished.end_time).not.toBeNull();
    const params = JSON.parse(String(finished.parameters)) as Record<string, unknown>;
    expect(obj(params.default_starts)).toHaveProperty("biorxiv");
    const list = arr((await call(kit, "GET", "/api/executions?limit=5")).json).map(obj);
    expect(list.some((e) => e.id === id)).toBe(true);
  });

  it("a sweep naming an unknown source is admitted and fails later", async () => {
    kit.setAdmission({ runDurationMs: 30 });
    const id = obj(
      (await call(kit, "POST", "/api/search/sweep", { query: "x", repositories: ["no_such_source"] })).json,
    ).execution_id;
    const failed = await waitFor(id, "failed");
    expect(JSON.stringify(failed.coverage)).toContain("Unknown repository: no_such_source");
  });

  it("answers 429 with Retry-After when no admission slot is free", async () => {
    kit.setAdmission({ maxConcurrent: 1, runDurationMs: 60_000 });
    expect(
      (await call(kit, "POST", "/api/search/sweep", { query: "a", repositories: ["arxiv"] })).status,
    ).toBe(200);
    const refused = await call(kit, "POST", "/api/search/sweep", { query: "b", repositories: ["arxiv"] });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("5");
  });

  it("queues routine fires at the limit (202 with a position), then 409 when the queue is full", async () => {
    kit.setAdmission({ maxConcurrent: 1, queueLimit: 1, runDurationMs: 60_000 });
    expect(
      (await call(kit, "POST", "/api/search/sweep", { query: "a", repositories: ["arxiv"] })).status,
    ).toBe(200);
    const queued = await call(kit, "POST", "/api/routines/1/run");
    expect(queued.status).toBe(202);
    expect(obj(queued.json)).toMatchObject({ execution_id: null, queued: true, queue_position: 1 });
    const full = await call(kit, "POST", "/api/routines/2/run");
    expect(full.status).toBe(409);
  });

  it("a queued fire starts on its own when a slot frees", async () => {
    // Long enough that the sweep still holds the one slot when the routine fire arrives on a loaded machine.
    kit.setAdmission({ maxConcurrent: 1, runDurationMs: 1500 });
    await call(kit, "POST", "/api/search/sweep", { query: "a", repositories: ["arxiv"] });
    expect((await call(kit, "POST", "/api/routines/2/run")).status).toBe(202);
    for (let i = 0; i < 300; i++) {
      const rows = arr((await call(kit, "GET", "/api/executions?limit=3")).json).map(obj);
      if (rows.some((e) => e.routine_id === 2 && e.owner_runtime_id === kit.runtimeId)) return;
      await sleep(20);
    }
    throw new Error("the queued fire never started");
  });

  it("409 names the running execution when that routine is already running", async () => {
    kit.setAdmission({ runDurationMs: 60_000 });
    const first = obj((await call(kit, "POST", "/api/routines/1/run")).json);
    const again = await call(kit, "POST", "/api/routines/1/run");
    expect(again.status).toBe(409);
    expect(String(obj(again.json).detail)).toContain(String(first.execution_id));
    expect(again.headers.get("x-resmon-conflict")).toBe("routine_already_running");
    expect(again.headers.get("x-resmon-execution-id")).toBe(String(first.execution_id));
  });

  it("runs an inactive routine and says so", async () => {
    const run = obj((await call(kit, "POST", "/api/routines/3/run")).json);
    expect(run.was_inactive).toBe(true);
    expect(String(run.detail)).toContain("not scheduled");
    const active = obj((await call(kit, "POST", "/api/routines/2/run")).json);
    expect(active.was_inactive).toBe(false);
  });
});

describe("routines, profiles and settings", () => {
  it("creates a routine inactive when told, active by default, with an entity warning when no source can name an author", async () => {
    const created = await call(kit, "POST", "/api/routines", {
      name: "T",
      schedule_cron: "0 6 * * 1",
      parameters: { query: "q", repositories: ["arxiv"] },
      is_active: false,
    });
    expect(created.status).toBe(201);
    expect(Object.keys(obj(created.json)).sort()).toEqual(["id", "name"]);
    const id = obj(created.json).id;
    expect(obj((await call(kit, "GET", `/api/routines/${String(id)}`)).json).is_active).toBe(false);
    const dflt = obj(
      (
        await call(kit, "POST", "/api/routines", {
          name: "U",
          schedule_cron: "0 6 * * 1",
          parameters: { query: "q", repositories: [] },
        })
      ).json,
    );
    expect(obj((await call(kit, "GET", `/api/routines/${String(dflt.id)}`)).json).is_active).toBe(true);
    const watch = obj(
      (
        await call(kit, "POST", "/api/routines", {
          name: "W",
          schedule_cron: "0 6 * * 1",
          parameters: { query: "", repositories: ["biorxiv"], entity: { profile_id: 1, mode: "new_papers" } },
          is_active: false,
        })
      ).json,
    );
    expect(typeof watch.entity_warning).toBe("string");
    const bad = await call(kit, "POST", "/api/routines", {
      name: "X",
      schedule_cron: "0 6 * * 1",
      parameters: { query: "", repositories: [], entity: { profile_id: 4, mode: "new_papers" } },
    });
    expect(bad.status).toBe(400);
  });

  it("lists routines with 0/1 flags and parameters as a JSON string; the detail uses booleans", async () => {
    const rows = arr((await call(kit, "GET", "/api/routines")).json).map(obj);
    expect(rows.length).toBe(5);
    // Routine 5 is stored as resmon 2.3's own fixture stores routines: keys the dispatcher never reads.
    const older = rows.find((r) => r.id === 5);
    expect(JSON.parse(String(older?.parameters))).toEqual({ keywords: "retraction", sources: ["europepmc"] });
    for (const r of rows) {
      expect([0, 1]).toContain(r.is_active);
      expect(typeof JSON.parse(String(r.parameters))).toBe("object");
      expect(obj(r.missed_fires)).toHaveProperty("count");
    }
    expect(typeof obj((await call(kit, "GET", "/api/routines/1")).json).is_active).toBe("boolean");
  });

  it("summarizes deliveries by channel with the last delivery's state, and none for a routine never delivered", async () => {
    const one = obj(obj((await call(kit, "GET", "/api/routines/1/deliveries")).json).summary);
    expect(one.targets).toEqual({ email: 1, folder: 1, webhook: 1 });
    expect(one.awaiting_review).toBe(1);
    const none = obj(obj((await call(kit, "GET", "/api/routines/3/deliveries")).json).summary);
    expect(none.last).toBeNull();
    expect(none.enabled_target_count).toBe(0);
  });

  it("stores a group's keys on PUT, ignores unknown keys, and validates notify_automatic_mode", async () => {
    const put = await call(kit, "PUT", "/api/settings/storage", {
      settings: { pdf_policy: "archive", no_such_key: "x" },
    });
    expect(put.json).toEqual({ success: true });
    const after = obj((await call(kit, "GET", "/api/settings/storage")).json);
    expect(after.pdf_policy).toBe("archive");
    expect(after).not.toHaveProperty("no_such_key");
    expect(
      (
        await call(kit, "PUT", "/api/settings/notifications", {
          settings: { notify_automatic_mode: "bogus" },
        })
      ).status,
    ).toBe(400);
    await call(kit, "PUT", "/api/settings/notifications", { settings: { notify_manual: false } });
    expect(obj((await call(kit, "GET", "/api/settings/notifications")).json).notify_manual).toBe(false);
    const embeddings = obj((await call(kit, "GET", "/api/settings/embeddings")).json);
    expect(Object.keys(obj(embeddings.settings))).toHaveLength(8);
  });

  it("answers every group's PUT like the captured one, storing the group's keys", async () => {
    const writes: Record<string, [string, string]> = {
      ai: ["ai_model", "claude-opus-4"],
      assistant: ["assistant_effort", "low"],
      email: ["smtp_from", "me@example.org"],
      embeddings: ["embedding_batch_size", "64"],
    };
    for (const [group, [key, value]] of Object.entries(writes)) {
      const put = await call(kit, "PUT", `/api/settings/${group}`, { settings: { [key]: value } });
      expect(put.json).toEqual({ success: true });
      const got = obj((await call(kit, "GET", `/api/settings/${group}`)).json);
      expect((group === "embeddings" ? obj(got.settings) : got)[key]).toBe(value);
    }
  });

  it("carries the 39 keys across the six groups", async () => {
    let count = 0;
    for (const g of ["ai", "assistant", "email", "embeddings", "storage", "notifications"]) {
      const body = obj((await call(kit, "GET", `/api/settings/${g}`)).json);
      count += Object.keys(g === "embeddings" ? obj(body.settings) : body).length;
    }
    expect(count).toBe(39);
  });

  it("profiles carry basis_warning without an identifier, and matches of every basis", async () => {
    const profiles = arr(obj((await call(kit, "GET", "/api/profiles")).json).profiles).map(obj);
    expect(profiles.find((p) => p.id === 1)?.basis_warning).toBeNull();
    expect(typeof profiles.find((p) => p.id === 3)?.basis_warning).toBe("string");
    const created = await call(kit, "POST", "/api/profiles", {
      kind: "person",
      display_name: "Jane Doe",
      names: [{ value: "Jane Doe" }],
      identifiers: {},
      affiliations: [],
      field_hints: [],
    });
    expect(created.status).toBe(201);
    expect(typeof obj(created.json).basis_warning).toBe("string");
    const matches = obj((await call(kit, "GET", "/api/profiles/1/matches?limit=1")).json);
    expect(arr(matches.matches)).toHaveLength(1);
    expect(Object.keys(obj(matches.by_basis)).sort()).toEqual(["affiliation", "identifier", "name_only"]);
  });
});

describe("match transparency", () => {
  it("explains which recorded keywords appear where, and grades how much resmon can know", async () => {
    const one = obj((await call(kit, "GET", "/api/documents/1/why")).json);
    expect(one.verdict).toBe("local_evidence");
    const rows = arr(one.keywords).map(obj);
    expect(rows.map((r) => r.keyword).sort()).toEqual(["diffusion", "turbulence"]);
    expect(rows.find((r) => r.keyword === "diffusion")?.fields).toEqual(["title", "abstract"]);
    expect(arr(one.what_resmon_cannot_see).length).toBe(2);
    const preprint = obj((await call(kit, "GET", "/api/documents/5/why")).json);
    expect(preprint.verdict).toBe("resmon_filtered");
    expect(obj(preprint.source).resmon_filtered_locally).toBe(true);
    const none = obj((await call(kit, "GET", "/api/documents/4/why")).json);
    expect(none.verdict).toBe("no_keywords_recorded");
  });

  it("counts each keyword's unique contribution for a run or the corpus", async () => {
    const run = obj((await call(kit, "GET", "/api/analytics/keyword-contribution?execution_id=1")).json);
    expect(run.scope).toEqual({ type: "execution", execution_id: 1 });
    const rows = arr(run.keywords).map(obj);
    expect(rows.map((r) => r.keyword).sort()).toEqual(["diffusion", "turbulence"]);
    for (const r of rows) expect(Number(r.unique) + Number(r.shared)).toBe(r.matched);
    const corpus = obj((await call(kit, "GET", "/api/analytics/keyword-contribution")).json);
    expect(Number(corpus.documents_considered)).toBe(kit.seedSummary.papers);
    expect((await call(kit, "GET", "/api/analytics/keyword-contribution?execution_id=999")).status).toBe(404);
  });
});

describe("find_similar reasons", () => {
  it("gives neighbours with distances, or a reason for each kind of empty list", async () => {
    const near = obj((await call(kit, "GET", "/api/documents/1/similar?k=3")).json);
    expect(arr(near.neighbours)).toHaveLength(3);
    expect(near.reason).toBeNull();
    const reasons = new Set<string>();
    reasons.add(String(obj((await call(kit, "GET", "/api/documents/3/similar")).json).reason));
    kit.setEmbeddedOnly([1]);
    reasons.add(String(obj((await call(kit, "GET", "/api/documents/1/similar")).json).reason));
    kit.setEmbeddedOnly(null);
    kit.setEmbeddingState("extension_unavailable");
    reasons.add(String(obj((await call(kit, "GET", "/api/documents/1/similar")).json).reason));
    kit.setSemanticAvailable(false);
    const off = obj((await call(kit, "GET", "/api/documents/1/similar")).json);
    reasons.add(String(off.reason));
    expect(off.model).toBeNull();
    expect(reasons.size).toBe(4);
  });
});

describe("strictness and the request log", () => {
  it("refuses an undeclared query parameter or body field with its own reason, and counts it", async () => {
    const q = await call(kit, "GET", "/api/watchdog?include_muted=true");
    expect(q.status).toBe(400);
    expect(obj(obj(q.json).detail).reason).toBe("testkit_undeclared");
    expect(String(obj(obj(q.json).detail).message)).toContain("include_muted");
    const b = await call(kit, "POST", "/api/explorer/search", { query: "", offset: 10 });
    expect(String(obj(obj(b.json).detail).message)).toContain("offset");
    expect(kit.strictnessRefusals()).toBe(2);
    await call(kit, "GET", "/api/routines/1");
    expect(kit.strictnessRefusals()).toBe(2);
    const last = kit.requests[kit.requests.length - 1];
    expect(last).toMatchObject({
      method: "GET",
      path: "/api/routines/1",
      route: "/api/routines/{routine_id}",
      status: 200,
      strictnessRefusal: false,
    });
    kit.clearRequests();
    expect(kit.requests).toHaveLength(0);
  });

  it("answers FastAPI's 422 for missing or ill-typed body fields, coercing what pydantic would", async () => {
    const missing = await call(kit, "POST", "/api/search/sweep", { query: "graph" });
    expect(missing.status).toBe(422);
    expect(obj(arr(obj(missing.json).detail)[0]).loc).toEqual(["body", "repositories"]);
    const wrong = await call(kit, "POST", "/api/explorer/search", { query: 5, limit: "x" });
    expect(arr(obj(wrong.json).detail).map((e) => obj(e).type)).toEqual(["string_type", "int_parsing"]);
    const coerced = await call(kit, "POST", "/api/explorer/search", { query: "", limit: "3" });
    expect(arr(obj(coerced.json).results)).toHaveLength(3);
    expect((await call(kit, "GET", "/api/executions?limit=0")).status).toBe(422);
    expect((await call(kit, "GET", "/api/executions?offset=-1")).status).toBe(422);
    expect((await call(kit, "GET", "/api/routines/abc")).status).toBe(422);
  });

  it("answers FastAPI's 404 and 405 for paths and methods it does not serve", async () => {
    expect((await call(kit, "GET", "/api/nope")).json).toEqual({ detail: "Not Found" });
    expect((await call(kit, "DELETE", "/api/routines/1")).status).toBe(405);
    expect(kit.requests.map((r) => r.route)).toEqual([null, null]);
  });
});
