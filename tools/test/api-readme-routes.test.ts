/**
 * Every resmon route the api-client's README shows (its prose and the examples it shows whole) is
 * served by the stand-in, so what the client's types accept and the README shows can be tried
 * against `@resmon/testkit` (issue 32 point 4: `/progress/stream` type-checked and was listed, and
 * the stand-in answered 404). A route the stand-in does not serve answers FastAPI's own 404
 * `{"detail": "Not Found"}` or 405; anything else (a 200, a 422 for a missing body, a 404 naming the
 * missing record) is the route answering.
 */
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestkit, type Testkit } from "@resmon/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../src/pack-snippets.js";

const README = readFileSync(join(REPO_ROOT, "packages", "api-client", "README.md"), "utf8");

/** `client.GET("/api/…"` and `client.stream("GET", "/api/…"` as the README writes them. */
function routesShown(text: string): string[] {
  const calls = [...text.matchAll(/\.(GET|POST|PUT|DELETE|PATCH)\(\s*"(\/api\/[^"]+)"/g)].map(
    (m) => `${m[1]} ${m[2]}`,
  );
  const streams = [...text.matchAll(/\.stream\(\s*"(GET|POST|PUT|DELETE|PATCH)",\s*"(\/api\/[^"]+)"/g)].map(
    (m) => `${m[1]} ${m[2]}`,
  );
  return [...new Set([...calls, ...streams])].sort();
}

let kit: Testkit;
let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "resmon-readme-routes-"));
  kit = await startTestkit({ stateDir: dir });
});
afterAll(async () => {
  await kit?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe("the routes the api-client's README shows", () => {
  const shown = routesShown(README);

  it("are found in it, the progress stream among them", () => {
    expect(shown).toContain("GET /api/executions/{exec_id}/progress/stream");
    expect(shown).toContain("GET /api/executions/{exec_id}/progress/events");
    expect(shown.length).toBeGreaterThan(5);
  });

  it.each(shown.map((route) => [route]))("%s is served by the stand-in", async (route) => {
    const [method, template] = route.split(" ") as [string, string];
    // Record 1 exists in the demo seed for every kind of id; the answer only has to come from the route.
    const path = template.replace(/\{[a-z_]+\}/g, "1");
    const answer = await fetch(`${kit.baseUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${kit.token}` },
    });
    const text = await answer.text();
    expect(answer.status, `${route}: ${text.slice(0, 200)}`).not.toBe(405);
    expect(
      answer.status === 404 && text === '{"detail":"Not Found"}',
      `${route}: ${text.slice(0, 200)}`,
    ).toBe(false);
  });
});
