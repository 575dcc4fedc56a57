// Start a sweep and follow its progress events until the run ends.
import { setTimeout as sleep } from "node:timers/promises";
import { discover } from "@resmon/api-client";

const [query = "protein folding", source = "arxiv"] = process.argv.slice(2);

const found = await discover();
if (!found.ok) throw new Error(`${found.refusal.kind}: ${found.refusal.message}`);
const { client } = found;
try {
  const started = await client.POST("/api/search/sweep", { body: { query, repositories: [source] } });
  if (!started.ok) throw new Error(`${started.error.kind}: ${started.error.message}`);
  const execId = started.data.execution_id;
  const seen: string[] = [];
  let final: { status?: string; result_count?: number; new_count?: number } | undefined;
  for (const until = Date.now() + 60_000; final === undefined && Date.now() < until; await sleep(250)) {
    const events = await client.GET("/api/executions/{exec_id}/progress/events", {
      params: { path: { exec_id: execId } },
    });
    if (!events.ok) throw new Error(events.error.message);
    for (const event of events.data.slice(seen.length)) {
      seen.push(event.stage ? `${event.type}:${event.stage}` : event.type);
      if (event.type === "complete") final = event; // always the last event of a run
    }
  }
  if (final === undefined) throw new Error(`execution ${execId} did not end within 60 s`);
  console.log(
    JSON.stringify({ execution_id: execId, events: seen, status: final.status, papers: final.result_count }),
  );
} finally {
  await client.close();
}
