// An execution's papers as BibTeX, streamed into a file (never held whole in memory).
import { createWriteStream } from "node:fs";
import { pipeline } from "node:stream/promises";
import { discover } from "@resmon/api-client";

const [execArg = "1", file = "references.bib"] = process.argv.slice(2);

const found = await discover();
if (!found.ok) throw new Error(`${found.refusal.kind}: ${found.refusal.message}`);
const { client } = found;
try {
  const answer = await client.stream("GET", "/api/executions/{exec_id}/references", {
    params: { path: { exec_id: Number(execArg) }, query: { format: "bibtex" } },
  });
  if (!answer.ok) throw new Error(`${answer.error.kind}: ${answer.error.message}`);
  let bytes = 0;
  await pipeline(
    answer.body,
    async function* count(chunks: AsyncIterable<Uint8Array>) {
      for await (const chunk of chunks) {
        bytes += chunk.byteLength;
        yield chunk;
      }
    },
    createWriteStream(file),
  ); // a failure part-way (the deadline, a dropped connection) rejects with ApiStreamError
  console.log(JSON.stringify({ file, bytes, type: answer.headers.get("content-type") }));
} finally {
  await client.close();
}
