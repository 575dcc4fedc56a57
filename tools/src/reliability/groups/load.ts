import { VALID_CALLS } from "../calls.js";
import { type GroupRun, kitFor, tempDir } from "../context.js";
import { callTool, describe } from "../outcome.js";
import { cleanEnv, connectClient } from "../proc.js";
import { GROUP_TITLES } from "../titles.js";

const GROUP = GROUP_TITLES.load;
const CALLERS = 50;

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

const mb = (kib: number | null) => (kib === null ? "?" : `${(kib / 1024).toFixed(1)} MB`);

/**
 * 10,000 sequential calls (at scale 1) cycling through every read, then 50 concurrent callers, all
 * against the stand-in through one server process: every call must succeed. The server's resident
 * set size is read from /proc at the start, after half and after all of the sequential calls; the
 * second half may not add more than a quarter (plus 16 MB of GC slack) to the first.
 */
export async function load({ tally, opts }: GroupRun): Promise<void> {
  const total = Math.max(200, Math.round(10_000 * opts.scale));
  const perCaller = Math.max(4, Math.round(40 * opts.scale));
  const dir = tempDir("load");
  const kit = await kitFor({ stateDir: dir });
  const { client, proc } = await connectClient(
    "load",
    cleanEnv({ RESMON_PORT_FILE: kit.portFile ?? "", RESMON_STATE_DIR: dir }),
  );
  await client.listTools();
  await callTool(client, "health", {}, 10_000);
  const rssStart = proc.rssKiB();
  let rssHalf: number | null = null;
  const latencies: number[] = [];
  const started = performance.now();
  for (let i = 0; i < total; i++) {
    const [tool, args] = VALID_CALLS[i % VALID_CALLS.length] as [string, Record<string, unknown>];
    const got = await callTool(client, tool, args, 15_000);
    latencies.push(got.ms);
    tally.record(GROUP, got.kind === "success" ? null : `sequential #${i} ${tool}: ${describe(got)}`);
    if (i + 1 === total / 2) rssHalf = proc.rssKiB();
    if (kit.requests.length > 5000) kit.clearRequests();
    if ((i + 1) % 2500 === 0) opts.log(`  load: ${i + 1} sequential calls, server RSS ${mb(proc.rssKiB())}`);
  }
  const seqSeconds = (performance.now() - started) / 1000;
  const rssEnd = proc.rssKiB();
  const bounded = rssHalf !== null && rssEnd !== null && rssEnd <= rssHalf * 1.25 + 16 * 1024;
  // A few hundred calls are still the heap's warm-up: the bound is a case only in a run of thousands.
  if (total >= 2000) {
    tally.record(
      GROUP,
      bounded
        ? null
        : `RSS grew from ${mb(rssHalf)} after ${total / 2} calls to ${mb(rssEnd)} after ${total}`,
    );
  } else tally.note(GROUP, "RSS bound not judged below 2,000 sequential calls (heap warm-up)");
  latencies.sort((a, b) => a - b);

  // 50 concurrent callers on the same session.
  const concStarted = performance.now();
  const results = await Promise.all(
    Array.from({ length: CALLERS }, async (_, caller) => {
      const out: string[] = [];
      for (let j = 0; j < perCaller; j++) {
        const [tool, args] = VALID_CALLS[(caller + j) % VALID_CALLS.length] as [
          string,
          Record<string, unknown>,
        ];
        const got = await callTool(client, tool, args, 60_000);
        out.push(got.kind === "success" ? "" : `caller ${caller} #${j} ${tool}: ${describe(got)}`);
      }
      return out;
    }),
  );
  const concSeconds = (performance.now() - concStarted) / 1000;
  for (const problem of results.flat()) tally.record(GROUP, problem === "" ? null : problem);
  const rssAfterConcurrent = proc.rssKiB();
  tally.record(GROUP, proc.alive ? null : "server process exited under load");
  tally.note(
    GROUP,
    `${total} sequential calls in ${seqSeconds.toFixed(1)} s (${Math.round(total / seqSeconds)}/s; p50 ${pct(latencies, 50).toFixed(1)} ms, p99 ${pct(latencies, 99).toFixed(1)} ms, max ${pct(latencies, 100).toFixed(0)} ms); ` +
      `${CALLERS} concurrent callers × ${perCaller} calls in ${concSeconds.toFixed(1)} s; ` +
      `server RSS start ${mb(rssStart)}, after ${total / 2} ${mb(rssHalf)}, after ${total} ${mb(rssEnd)}, after the concurrent callers ${mb(rssAfterConcurrent)}`,
  );
  await client.close();
  await kit.stop();
}
