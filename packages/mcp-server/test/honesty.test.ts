/**
 * Answers never claim more than resmon reported: a failed read-back, a missing delivery summary,
 * health fields resmon did not send, and destinations inside last_error.
 */
import { describe, expect, it } from "vitest";
import { deliverySummary } from "../src/shape/routine.js";
import type { FakeReply, SeenRequest } from "./helpers/fake-backend.js";
import { useFakeSession } from "./helpers/fake-session.js";

let reply: (req: SeenRequest) => FakeReply = () => ({ status: 200, body: {} });
const { call } = useFakeSession((req) => reply(req));

const ROUTINE_ARGS = { name: "Watch", keywords: ["graph"], sources: ["arxiv"], schedule: "0 7 * * 1" };

describe("create_routine", () => {
  it("a failed read-back still reports the routine that was created, with its warning, and claims nothing more", async () => {
    reply = (req) =>
      req.method === "POST"
        ? {
            status: 201,
            body: { id: 9, name: "Watch", entity_warning: "none of these sources can name an author" },
          }
        : { status: 500, body: { detail: "database is locked" } };
    const { error, body } = await call("create_routine", ROUTINE_ARGS);
    expect(error).toBe(false);
    expect(body).toMatchObject({
      routine: { id: 9, name: "Watch" },
      read_back: false,
      entity_warning: "none of these sources can name an author",
      detail: { entity_warning: "none of these sources can name an author" },
    });
    expect(body.routine).not.toHaveProperty("is_active");
  });

  it("a read-back that works is the stored record", async () => {
    reply = (req) =>
      req.method === "POST"
        ? { status: 201, body: { id: 9, name: "Watch" } }
        : {
            status: 200,
            body: { id: 9, name: "Watch", is_active: false, schedule_cron: "0 7 * * 1", parameters: "{}" },
          };
    const { body } = await call("create_routine", ROUTINE_ARGS);
    expect(body).toMatchObject({ routine: { id: 9, is_active: false }, read_back: true });
    expect(body).not.toHaveProperty("entity_warning");
  });
});

describe("health", () => {
  it("passes scheduler and daemon on only when resmon sent them, and says which it did not", async () => {
    reply = () => ({ status: 200, body: { status: "ok", version: "1.8.3" } });
    const { body } = await call("health", {});
    expect(body).not.toHaveProperty("scheduler");
    expect(body).not.toHaveProperty("daemon");
    expect(body.not_reported).toEqual(["scheduler", "daemon"]);
  });
});

describe("run_routine", () => {
  it("a 429 is a conflict carrying Retry-After", async () => {
    reply = () => ({ status: 429, body: { detail: "No run slot is free." }, retryAfter: 5 });
    const { body } = await call("run_routine", { routine_id: 1 });
    expect(body).toMatchObject({ error: "conflict", detail: { retry_after: 5 } });
  });
});

describe("deliverySummary", () => {
  it("is null when resmon sent no target counts, so the key is left off rather than zeroed", () => {
    expect(deliverySummary({ routine_id: 1, deliveries: [] })).toBeNull();
    expect(deliverySummary({ routine_id: 1, deliveries: [], summary: {} })).toBeNull();
  });

  it("strips every destination shape from last_error", () => {
    const summary = deliverySummary({
      deliveries: [],
      summary: {
        targets: { email: 1 },
        last: {
          state: "failed",
          last_error:
            "SMTP smtp.uni.example:587 refused ada@uni.example; share \\\\server\\share\\x; ~/Reports/weekly; /srv/out/r.md; https://hooks.example/x",
        },
      },
    });
    const text = String(summary?.last_error);
    for (const leak of [
      "smtp.uni.example",
      "ada@uni.example",
      "server",
      "Reports",
      "/srv/out",
      "hooks.example",
    ]) {
      expect(text).not.toContain(leak);
    }
  });
});
