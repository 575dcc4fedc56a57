// The reading queue: what is still to read, newest save first, with the counts per state.
import { discover } from "@resmon/api-client";

const found = await discover();
if (!found.ok) throw new Error(`${found.refusal.kind}: ${found.refusal.message}`);
const { client } = found;
try {
  const page = await client.GET("/api/reading-queue", {
    params: { query: { status: "to_read", limit: 50 } },
  });
  if (!page.ok) throw new Error(`${page.error.kind}: ${page.error.message}`);
  const toRead = page.data.entries.map((entry) => ({
    document_id: entry.document_id,
    title: entry.document.title ?? null,
    saved_at: entry.saved_at,
  }));
  console.log(JSON.stringify({ counts: page.data.counts, total: page.data.total, toRead }));
} finally {
  await client.close();
}
