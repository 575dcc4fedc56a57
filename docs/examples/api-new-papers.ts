// A routine's new papers since a date: its runs from that day on, and the papers each one added.
import { discover } from "@resmon/api-client";

const [routineArg = "1", since = "1970-01-01"] = process.argv.slice(2);
const routineId = Number(routineArg);

const found = await discover(); // RESMON_PORT or the port file; the token from the state dir
if (!found.ok) throw new Error(`${found.refusal.kind}: ${found.refusal.message}`);
const { client } = found;
try {
  const runs = await client.GET("/api/executions", { params: { query: { limit: 500 } } });
  if (!runs.ok) throw new Error(runs.error.message);
  // resmon's list has no routine filter: keep this routine's runs that started on or after `since`.
  const mine = runs.data.filter((run) => run.routine_id === routineId && (run.start_time ?? "") >= since);
  const papers: Array<{ execution_id: number; title: string | null; doi: string | null }> = [];
  for (const run of mine) {
    const added = await client.GET("/api/executions/{exec_id}/references", {
      params: { path: { exec_id: run.id }, query: { format: "json", only_new: true } },
    });
    if (!added.ok) throw new Error(added.error.message);
    if (!Array.isArray(added.data)) continue; // format=json answers records, never text
    for (const paper of added.data) {
      papers.push({ execution_id: run.id, title: paper.title, doi: paper.doi ?? null });
    }
  }
  console.log(JSON.stringify({ routine_id: routineId, since, runs: mine.length, papers }));
} finally {
  await client.close();
}
