/**
 * The client sends with node:http and never reaches for Node's fetch: touching `Request`,
 * `Headers`, `FormData` or `fetch` makes Node load its own undici (~25 ms the first time, on a
 * server's first tool call), and an HTTP/2-capable client loads node:http2 (~19 ms). Checked in a
 * fresh process on the built client (turbo builds before it tests): discovery (its wrong-token
 * check and health), a JSON request with a query and a body, and a streamed answer, then what Node
 * loaded.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const CLIENT = pathToFileURL(join(import.meta.dirname, "..", "dist", "index.js")).href;

const PROBE = `
import { mkdtempSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
const { discover } = await import(process.argv[1]);
const token = "t".repeat(43);
const seen = [];
const server = http.createServer((req, res) => {
  seen.push(req.method + " " + req.url);
  const json = (status, body) => {
    res.writeHead(status, { "content-type": "application/json", "retry-after": "1" });
    res.end(JSON.stringify(body));
  };
  if (req.headers.authorization !== "Bearer " + token) return json(401, { detail: { reason: "token_invalid" } });
  if (req.url === "/api/health") return json(200, { status: "ok", identity: { runtime_id: "x" } });
  if (req.method === "POST") return json(200, { execution_id: 1 });
  res.writeHead(200, { "content-type": "application/x-bibtex" });
  res.write("@article{a,}\\n");
  res.end("@article{b,}\\n");
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const { port } = server.address();
const state = mkdtempSync(join(tmpdir(), "resmon-no-fetch-"));
writeFileSync(join(state, "api-token-" + port), token);
const found = await discover({ env: { RESMON_PORT: String(port), RESMON_STATE_DIR: state } });
if (!found.ok) throw new Error(found.refusal.message);
const posted = await found.client.POST("/api/search/sweep", {
  params: { query: { expected_runtime_id: "x" } },
  body: { query: "graphs", repositories: ["arxiv"] },
});
const streamed = await found.client.stream("GET", "/api/executions/{exec_id}/references", {
  params: { path: { exec_id: 1 }, query: { format: "bibtex" } },
});
let text = "";
if (streamed.ok) for await (const chunk of streamed.body) text += chunk;
await found.client.close();
server.close();
const loaded = process.moduleLoadList;
console.log(JSON.stringify({
  seen,
  posted: posted.ok && posted.data,
  type: streamed.ok && streamed.headers.get("content-type"),
  text,
  fetch: loaded.filter((m) => m.includes("undici")),
  http2: loaded.filter((m) => m.includes("http2")),
}));
`;

describe("the client's requests", () => {
  it("load neither Node's fetch (its internal undici) nor node:http2", () => {
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", PROBE, CLIENT], {
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(run.stderr).toBe("");
    const result = JSON.parse(run.stdout);
    // The requests were made: the wrong-token check, health, the POST, the stream.
    expect(result.seen).toEqual([
      "GET /api/health",
      "GET /api/health",
      "POST /api/search/sweep?expected_runtime_id=x",
      "GET /api/executions/1/references?format=bibtex",
    ]);
    expect(result.posted).toEqual({ execution_id: 1 });
    expect(result.type).toBe("application/x-bibtex");
    expect(result.text).toBe("@article{a,}\n@article{b,}\n");
    expect(result.fetch).toEqual([]);
    expect(result.http2).toEqual([]);
  });
});
