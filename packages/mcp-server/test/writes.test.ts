import { describe, expect, it } from "vitest";
import type { FakeReply, SeenRequest } from "./helpers/fake-backend.js";
import { useFakeSession } from "./helpers/fake-session.js";

let reply: (req: SeenRequest) => FakeReply = () => ({ status: 200, body: {} });
const { fake, call } = useFakeSession((req) => reply(req));

const NOTIFICATIONS = { notify_manual: true, notify_automatic_mode: "none" };
const AI = { ai_provider: "anthropic", ai_model: "", ai_cli_path: "", ai_effort: "", ai_future_knob: "" };

describe("update_settings guards", () => {
  it("refuses a credential-shaped key first, before any request, saying keys live in the keychain", async () => {
    const { body } = await call("update_settings", {
      group: "ai",
      settings: { ai_cli_path: "/bin/sh", anthropic_api_key: "sk-x" },
    });
    expect(body).toMatchObject({
      error: "invalid_argument",
      detail: { refused: "credential", keys: ["anthropic_api_key"] },
    });
    expect(body.message).toMatch(/keychain/);
    expect(body.message).not.toContain("sk-x");
    expect(fake.seen).toHaveLength(0);
  });

  it("refuses withheld keys by name with their reason, before any request", async () => {
    const { body } = await call("update_settings", { group: "ai", settings: { ai_cli_path: "/bin/sh" } });
    expect(body).toMatchObject({
      error: "invalid_argument",
      detail: { refused: "withheld", keys: ["ai_cli_path"] },
    });
    expect(String(body.message)).toMatch(/ai_cli_path \(.+\)/);
    expect(fake.seen).toHaveLength(0);
  });

  it("refuses a key the group's GET does not return, rather than dropping it", async () => {
    reply = () => ({ status: 200, body: NOTIFICATIONS });
    const { body } = await call("update_settings", {
      group: "notifications",
      settings: { ai_model: "opus" },
    });
    expect(body).toMatchObject({
      error: "invalid_argument",
      detail: { refused: "unknown", keys: ["ai_model"] },
    });
    expect(fake.seen.map((r) => r.method)).toEqual(["GET"]);
  });

  it("refuses an undecided key the backend returns that is on neither list", async () => {
    reply = () => ({ status: 200, body: AI });
    const { body } = await call("update_settings", { group: "ai", settings: { ai_future_knob: "1" } });
    expect(body).toMatchObject({
      error: "invalid_argument",
      detail: { refused: "undecided", keys: ["ai_future_knob"] },
    });
    expect(fake.seen.map((r) => r.method)).toEqual(["GET"]);
  });

  it.each([
    ["TRUE", true],
    ["false", false],
    ["False", false],
  ])("converts %j to a JSON boolean for a field resmon returns as a boolean", async (value, expected) => {
    reply = (req) => ({ status: 200, body: req.method === "PUT" ? { success: true } : NOTIFICATIONS });
    const { error } = await call("update_settings", {
      group: "notifications",
      settings: { notify_manual: value },
    });
    expect(error).toBe(false);
    expect(fake.seen[1]?.body).toEqual({ settings: { notify_manual: expected } });
  });

  it.each([["yes"], ["1"], [""]])("refuses %j for a boolean field before the PUT", async (value) => {
    reply = () => ({ status: 200, body: NOTIFICATIONS });
    const { body } = await call("update_settings", {
      group: "notifications",
      settings: { notify_manual: value },
    });
    expect(body).toMatchObject({ error: "invalid_argument", detail: { key: "notify_manual" } });
    expect(fake.seen.map((r) => r.method)).toEqual(["GET"]);
  });

  it("writes embeddings keys flat and diffs its nested settings object", async () => {
    let reads = 0;
    reply = (req) => {
      if (req.method === "PUT") return { status: 200, body: { success: true } };
      reads += 1;
      const model = reads === 1 ? "" : "nomic-embed-text";
      return {
        status: 200,
        body: { settings: { embedding_enabled: "", embedding_model: model }, providers: [] },
      };
    };
    const { body } = await call("update_settings", {
      group: "embeddings",
      settings: { embedding_model: "nomic-embed-text" },
    });
    expect(fake.seen[1]?.body).toEqual({ settings: { embedding_model: "nomic-embed-text" } });
    expect(body).toEqual({
      group: "embeddings",
      changed: { embedding_model: { from: "", to: "nomic-embed-text" } },
      requested: { embedding_model: "nomic-embed-text" },
      unchanged_key_count: 1,
    });
  });

  it("passes resmon's own refusal of a value through as invalid_argument", async () => {
    reply = (req) =>
      req.method === "PUT"
        ? { status: 400, body: { detail: "notify_automatic_mode must be 'all', 'selected', or 'none'" } }
        : { status: 200, body: NOTIFICATIONS };
    const { body } = await call("update_settings", {
      group: "notifications",
      settings: { notify_automatic_mode: "bogus" },
    });
    expect(body).toMatchObject({
      error: "invalid_argument",
      message: expect.stringMatching(/must be 'all'/),
    });
  });
});

describe("run_routine outcomes", () => {
  it("queued: execution_id null, queue_position, nothing to poll", async () => {
    reply = () => ({
      status: 202,
      body: { execution_id: null, queued: true, queue_position: 2, detail: "Queued; it starts on its own." },
    });
    const { error, body } = await call("run_routine", { routine_id: 1 });
    expect(error).toBe(false);
    expect(body).toMatchObject({ queued: true, queue_position: 2, execution_id: null });
  });

  it("already running: conflict carrying routine_already_running and that run's id", async () => {
    reply = () => ({
      status: 409,
      body: {
        detail: { conflict: "routine_already_running", execution_id: 42, message: "It is already running." },
      },
    });
    const { body } = await call("run_routine", { routine_id: 1 });
    expect(body).toMatchObject({
      error: "conflict",
      detail: { conflict: "routine_already_running", execution_id: 42 },
    });
  });

  it("queue full: a plain conflict", async () => {
    reply = () => ({ status: 409, body: { detail: "The routine queue is full." } });
    const { body } = await call("run_routine", { routine_id: 1 });
    expect(body).toMatchObject({ error: "conflict", message: "The routine queue is full." });
  });
});

describe("create_routine", () => {
  it("passes entity unexamined, sends intent only when given, surfaces entity_warning top and detail", async () => {
    const warning = "None of these sources can be asked about an author.";
    reply = (req) =>
      req.method === "POST"
        ? { status: 201, body: { id: 9, name: "Watch", entity_warning: warning } }
        : {
            status: 200,
            body: {
              id: 9,
              name: "Watch",
              is_active: false,
              parameters: "{}",
              missed_fires: { count: 0, last_due_at_utc: null },
            },
          };
    const { body } = await call("create_routine", {
      name: "Watch",
      keywords: ["x"],
      sources: ["arxiv"],
      schedule: "0 7 * * 1",
      intent: "Papers by my advisor",
      entity: { profile_id: 3, mode: "retractions" },
    });
    expect(fake.seen.find((r) => r.method === "POST")?.body).toMatchObject({
      intent: "Papers by my advisor",
      is_active: false,
      parameters: { query: "x", repositories: ["arxiv"], entity: { profile_id: 3, mode: "retractions" } },
    });
    expect(body.entity_warning).toBe(warning);
    expect(body.detail).toMatchObject({ entity_warning: warning });
  });

  it("a profile resmon refuses at the seam is invalid_argument", async () => {
    reply = () => ({ status: 400, body: { detail: "Watch profile 99 does not exist." } });
    const { body } = await call("create_routine", {
      name: "W",
      keywords: ["x"],
      sources: ["arxiv"],
      schedule: "0 7 * * 1",
      entity: { profile_id: 99, mode: "new_papers" },
    });
    expect(body).toMatchObject({ error: "invalid_argument", message: "Watch profile 99 does not exist." });
  });
});
