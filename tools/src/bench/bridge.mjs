// The least a stdio MCP server can do for a tool call: a second floor for the per-call figures.
// It answers initialize and tools/list with nothing to speak of, and a tools/call of health or
// search_corpus by making the same backend request with @resmon/api-client and writing the answer
// as MCP wants it (the JSON as text, and as structuredContent) — no SDK, no validation, no mapping,
// no scrubbing. Whatever overhead this bridge has, any stdio server that returns the same bytes has.
// Plain JavaScript so it starts without a TypeScript loader, like the built server.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createResmonClient } from "@resmon/api-client";

const portFile = process.env.RESMON_PORT_FILE ?? "";
const port = Number(readFileSync(portFile, "utf8").trim());
const token = readFileSync(join(process.env.RESMON_STATE_DIR ?? "", `api-token-${port}`), "utf8").trim();
const client = createResmonClient({ port, token });

const write = (id, result) => process.stdout.write(`${JSON.stringify({ result, jsonrpc: "2.0", id })}\n`);

function call(id, name, args) {
  const request =
    name === "health"
      ? client.GET("/api/health")
      : client.POST("/api/explorer/search", {
          body: { query: args.query, limit: args.limit, sort: "newest" },
        });
  request.then((answer) => {
    if (!answer.ok) return write(id, { content: [{ type: "text", text: "failed" }], isError: true });
    const text = JSON.stringify(answer.data);
    write(id, { content: [{ type: "text", text }], structuredContent: answer.data });
  });
}

let pending = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  pending += chunk;
  for (let nl = pending.indexOf("\n"); nl >= 0; nl = pending.indexOf("\n")) {
    const message = JSON.parse(pending.slice(0, nl));
    pending = pending.slice(nl + 1);
    if (message.id === undefined) continue;
    if (message.method === "tools/call")
      call(message.id, message.params.name, message.params.arguments ?? {});
    else if (message.method === "tools/list") write(message.id, { tools: [] });
    else write(message.id, {});
  }
});
process.stdin.on("end", () => process.exit(0));
