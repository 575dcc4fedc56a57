/**
 * Errors worded for whoever holds the client (issue 32 point 3): each of resmon's guard refusals is
 * resmon's own sentence and then what to do about it, and a busy resmon's 429 says when to try
 * again; discover()'s refusal when nothing names a port speaks of this client, not of an MCP server
 * or a harness (the server says the spec's sentence itself, in its own error funnel).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createResmonClient, discover, GUARD_REMEDIES, type GuardReason } from "../src/index.js";
import { type LoopbackServer, startServer, TOKEN } from "./helpers/loopback-server.js";

/** resmon's four guard sentences (facts.md, "the local API guard"). */
const RESMON_SAYS: Record<GuardReason, [number, string]> = {
  token_missing: [401, "This request needs resmon's local API token."],
  token_invalid: [401, "The local API token on this request is not this resmon's."],
  host_refused: [403, "resmon answers only requests addressed to 127.0.0.1 or localhost on its own port."],
  origin_refused: [403, "resmon answers browser requests only from its own window."],
};

const servers: LoopbackServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe("resmon's refusals, with what to do", () => {
  it.each(Object.keys(RESMON_SAYS) as GuardReason[])(
    "%s: resmon's sentence, then the remedy",
    async (reason) => {
      const [status, sentence] = RESMON_SAYS[reason];
      const server = await startServer((_req, res) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify({ detail: { reason, message: sentence } }));
      });
      servers.push(server);
      const client = createResmonClient({ port: server.port, token: TOKEN });
      try {
        const answer = await client.GET("/api/routines");
        expect(answer.ok).toBe(false);
        if (answer.ok) return;
        expect(answer.error).toMatchObject({ kind: "http", status, reason });
        expect(answer.error.message).toBe(`${sentence} ${GUARD_REMEDIES[reason]}`);
      } finally {
        await client.close();
      }
    },
  );

  it("a wrong token: call discover() again, the token changes with every start", () => {
    expect(GUARD_REMEDIES.token_invalid).toContain("call discover() again");
    expect(GUARD_REMEDIES.token_invalid).toContain("each time it starts");
  });

  it("a busy resmon's 429 says when to try again", async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(429, { "content-type": "application/json", "retry-after": "5" });
      res.end(JSON.stringify({ detail: "Too many concurrent executions" }));
    });
    servers.push(server);
    const client = createResmonClient({ port: server.port, token: TOKEN });
    try {
      const answer = await client.POST("/api/search/sweep", {
        body: { query: "q", repositories: ["arxiv"] },
      });
      if (answer.ok) throw new Error("expected a refusal");
      expect(answer.error).toMatchObject({ kind: "http", status: 429, retryAfter: 5 });
      expect(answer.error.message).toBe(
        "Too many concurrent executions. resmon is busy: try again in 5 s (its Retry-After).",
      );
    } finally {
      await client.close();
    }
  });
});

describe("discover()'s words are for whoever holds the client", () => {
  it("nothing named: says what discover() did, not what an MCP server or a harness did", async () => {
    const home = await mkdtemp(join(tmpdir(), "resmon-client-words-"));
    try {
      const found = await discover({ env: {}, homedir: home, platform: process.platform });
      if (found.ok) throw new Error("expected a refusal");
      expect(found.refusal.kind).toBe("nothing_named");
      expect(found.refusal.message).toContain("discover() did not look for one");
      expect(found.refusal.message).not.toMatch(/this server|harness/);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});
