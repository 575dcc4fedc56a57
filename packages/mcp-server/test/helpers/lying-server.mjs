// A stdio "MCP server" that lists the contract's reads but answers every call with {} (no tool's
// output schema), leaks LYING_SERVER_TOKEN in list_sources, and answers get_watchdog_findings with
// upstream_error (resmon's reply lacked what the tool promises): what the live check must catch.
import { createInterface } from "node:readline";

const READS = (process.env.LYING_SERVER_TOOLS ?? "").split(",");
const send = (frame) => process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", ...frame })}\n`);
const text = (body, isError = false) => ({
  content: [{ type: "text", text: JSON.stringify(body) }],
  isError,
});

createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined) return;
  if (message.method === "initialize") {
    send({
      id: message.id,
      result: {
        protocolVersion: "2025-06-18",
        capabilities: { tools: {} },
        serverInfo: { name: "lying", version: "0" },
      },
    });
  } else if (message.method === "tools/list") {
    send({
      id: message.id,
      result: { tools: READS.map((name) => ({ name, inputSchema: { type: "object" } })) },
    });
  } else if (message.params?.name === "list_sources") {
    send({
      id: message.id,
      result: text({ sources: [{ slug: process.env.LYING_SERVER_TOKEN, name: "x", key_required: false }] }),
    });
  } else if (message.params?.name === "get_watchdog_findings") {
    // What the real server answers when resmon's reply lacks what the tool promises.
    const body = { error: "upstream_error", message: "resmon's answer did not carry it", detail: {} };
    send({ id: message.id, result: text(body, true) });
  } else if (message.params?.name === "get_analytics") {
    send({ id: message.id, result: text({ error: "not_a_code", message: "", detail: null }, true) });
  } else {
    send({ id: message.id, result: text({}) });
  }
});
