/**
 * The tour's literature scan: scan_start with its contract row's own example call, then each
 * envelope's next_action followed to the end by the testkit's scripted harness (followScan), which
 * plays the model's part with fixed judgements. One line per call, then the verified top of the list.
 */
import type { Client } from "@modelcontextprotocol/client";
import { TOOL_BY_NAME } from "@resmon/mcp-contract";
import { followScan } from "@resmon/testkit";
import { heading, type Json, list, obj, out, plural } from "./show.js";

/** What a call sent, in a word or two. */
function sentLine(name: string, args: Json): string {
  if (name === "scan_start") return "the plan: brief, criteria, queries, sources";
  const artifact = Object.keys(args).find((k) => Array.isArray(args[k]));
  if (artifact) return `${artifact} ×${list(args[artifact]).length}`;
  return name === "scan_continue" ? "a poll" : "scan_id";
}

/** What one envelope says, for a person: where the scan is and what it asks for next. */
function envelopeLine(name: string, args: Json, body: Json): string {
  const payload = obj(body.payload);
  const batch = obj(payload.batch ?? payload.page);
  const items = list(batch.items).length;
  const of = batch.of === undefined ? "" : ` ${Number(batch.index) + 1} of ${batch.of}`;
  const asks = items ? `: ${payload.batch ? "batch" : "page"}${of}, ${plural(items, "paper")}` : "";
  return `  ${name} (${sentLine(name, args)}) → ${body.phase} → ${body.next_action}${asks}`;
}

export async function scan(client: Client): Promise<void> {
  const start = TOOL_BY_NAME.scan_start.example as Json;
  heading("A literature scan: the four scan tools");
  out(`  scan_start, its contract row's example: "${start.brief}"`);
  out("  (the model's judgements, scores and ranks, are played here by the testkit's scripted harness)");
  const started = Date.now();
  const { calls, final } = await followScan(
    async (name, args) => {
      const result = await client.callTool({ name, arguments: args });
      const text = (result.content as { type: string; text?: string }[])[0]?.text ?? "{}";
      return { ok: result.isError !== true, body: JSON.parse(text) as Json };
    },
    start,
    { onAnswer: (name, args, answer) => out(envelopeLine(name, args, answer.body)) },
  );
  const payload = obj(final.payload);
  const rows = list(payload.rows);
  out(
    `  ${plural(calls.length, "call")} in ${((Date.now() - started) / 1000).toFixed(1)} s; the top of the list, each checked against resmon's record:`,
  );
  for (const row of rows.slice(0, 3)) {
    out(`    ${row.rank}. ${row.title} (${row.verified ? "verified" : "not verified"})`);
  }
  const files = Object.values(obj(payload.files)).map((path) => String(path).split(/[\\/]/).pop());
  if (files.length) out(`  evidence written: ${files.join(", ")} (in RESMON_MCP_SCAN_DATA)`);
}
