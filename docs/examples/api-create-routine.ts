// Create a routine (inactive, as resmon's default is active), then activate it.
import { discover } from "@resmon/api-client";

const found = await discover();
if (!found.ok) throw new Error(`${found.refusal.kind}: ${found.refusal.message}`);
const { client } = found;
try {
  const created = await client.POST("/api/routines", {
    body: {
      name: "CRISPR base editing, weekly",
      schedule_cron: "0 6 * * 1",
      parameters: { query: "CRISPR base editing", repositories: ["arxiv", "pubmed"] },
      is_active: false,
    },
  });
  if (!created.ok) throw new Error(`${created.error.kind}: ${created.error.message}`);
  const routineId = created.data.id;
  const activated = await client.POST("/api/routines/{routine_id}/activate", {
    params: { path: { routine_id: routineId } },
  });
  if (!activated.ok) throw new Error(activated.error.message);
  const routine = await client.GET("/api/routines/{routine_id}", {
    params: { path: { routine_id: routineId } },
  });
  if (!routine.ok) throw new Error(routine.error.message);
  console.log(JSON.stringify({ id: routineId, active: activated.data.is_active, name: routine.data.name }));
} finally {
  await client.close();
}
