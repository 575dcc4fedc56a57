// The cold-start and memory floor for "an MCP server on this SDK": @modelcontextprotocol/server's
// McpServer behind its serveStdio entry (both protocol eras, as the real server serves them), with
// as many trivial tools as the real server has (the first argument; the bench passes the contract
// table's count, so it cannot go stale), each taking no arguments and answering one short text. No
// HTTP client, no contract, no validation beyond the SDK's own. The bench runs it bundled by the
// server's own build.mjs (`--floor`, launch.ts: built the same way); unbundled it runs as is. Tool 0
// is named `health` so the bench's calls reach it unchanged.
// With `--one-request` after the count, `health` instead asks resmon's GET /api/health once (node:http,
// keep-alive, the port file and token the bridge reads) and answers its body: the least any server
// that reaches resmon pays on its first call, measured beside the floor as information.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { z } from "zod";

const TOOL_COUNT = Number(process.argv[2]);
if (!Number.isInteger(TOOL_COUNT) || TOOL_COUNT < 1) {
  process.stderr.write("usage: floor-server.mjs <tool count> (the contract table's, TOOLS.length)\n");
  process.exit(2);
}

/** node:http and its keep-alive agent, made on the first request only: the trivial floor never pays for them. */
let http;
let agent;
/** One GET /api/health to the resmon of RESMON_PORT_FILE, with its token; its body as the answer. */
async function askResmon() {
  if (http === undefined) {
    http = await import("node:http");
    agent = new http.Agent({ keepAlive: true });
  }
  const port = Number(readFileSync(process.env.RESMON_PORT_FILE ?? "", "utf8").trim());
  const token = readFileSync(join(process.env.RESMON_STATE_DIR ?? "", `api-token-${port}`), "utf8").trim();
  const headers = { Authorization: `Bearer ${token}`, Accept: "application/json" };
  return new Promise((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path: "/api/health", agent, headers }, (answer) => {
        let text = "";
        answer.setEncoding("utf8");
        answer.on("data", (chunk) => {
          text += chunk;
        });
        answer.on("end", () =>
          resolve({ content: [{ type: "text", text }], isError: answer.statusCode !== 200 }),
        );
      })
      .on("error", reject);
  });
}
const trivial = (i) => async () => ({ content: [{ type: "text", text: `{"ok":true,"tool":${i}}` }] });
const oneRequest = process.argv[3] === "--one-request";

serveStdio(() => {
  const server = new McpServer({ name: "floor", version: "1.0.0" }, { capabilities: { tools: {} } });
  for (let i = 0; i < TOOL_COUNT; i += 1) {
    server.registerTool(
      i === 0 ? "health" : `tool_${i}`,
      { description: `Trivial tool ${i}.`, inputSchema: z.object({}) },
      i === 0 && oneRequest ? askResmon : trivial(i),
    );
  }
  return server;
});
