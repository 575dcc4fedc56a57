// The cold-start and memory floor for "an MCP server on this SDK": @modelcontextprotocol/server's
// McpServer behind its serveStdio entry (both protocol eras, as the real server serves them), with
// as many trivial tools as the real server has (the first argument; the bench passes the contract
// table's count, so it cannot go stale), each taking no arguments and answering one short text. No
// HTTP client, no contract, no validation beyond the SDK's own. The bench runs it bundled by the
// server's own build.mjs (`--floor`, launch.ts: built the same way); unbundled it runs as is. Tool 0
// is named `health` so the bench's calls reach it unchanged.
import { McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { z } from "zod";

const TOOL_COUNT = Number(process.argv[2]);
if (!Number.isInteger(TOOL_COUNT) || TOOL_COUNT < 1) {
  process.stderr.write("usage: floor-server.mjs <tool count> (the contract table's, TOOLS.length)\n");
  process.exit(2);
}

serveStdio(() => {
  const server = new McpServer({ name: "floor", version: "1.0.0" }, { capabilities: { tools: {} } });
  for (let i = 0; i < TOOL_COUNT; i += 1) {
    server.registerTool(
      i === 0 ? "health" : `tool_${i}`,
      { description: `Trivial tool ${i}.`, inputSchema: z.object({}) },
      async () => ({ content: [{ type: "text", text: `{"ok":true,"tool":${i}}` }] }),
    );
  }
  return server;
});
