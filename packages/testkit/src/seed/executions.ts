import type { Execution, Paper, SourceOutcome } from "../model.js";
import type { Rng } from "../prng.js";
import { pad } from "./format.js";
import { papersOnTopic } from "./papers.js";
import { TOPICS, topicAt } from "./topics.js";

const OLD_RUNTIME = "00000000-0000-4000-8001-000000000041";

function outcome(
  source: string,
  status: SourceOutcome["status"],
  count: number,
  extra: Partial<SourceOutcome> = {},
): SourceOutcome {
  return {
    source,
    status,
    result_count: count,
    zero_reason: null,
    zero_detail: null,
    in_part: false,
    error_message: null,
    recorded_at: "2026-02-01 05:37:00",
    sent: [],
    ...extra,
  };
}

function baseExecution(id: number, over: Partial<Execution>): Execution {
  return {
    id,
    execution_type: "deep_sweep",
    routine_id: null,
    saved_configuration_id: null,
    saved_configuration_name: null,
    parameters: null,
    start_time: "2026-02-01T06:00:00",
    end_time: "2026-02-01T06:12:00",
    status: "completed",
    result_count: 0,
    new_result_count: 0,
    log_path: null,
    result_path: null,
    error_message: null,
    progress_events: null,
    current_stage: null,
    owner_pid: 10000 + id * 7,
    owner_runtime_id: OLD_RUNTIME,
    last_seen_at_utc: `2026-03-01T07:${pad((id * 7) % 60)}:00.000001+00:00`,
    interrupted_reason: null,
    restarted_from: null,
    cancel_reason: null,
    dedup: null,
    request_id: null,
    selection: null,
    sources: [],
    document_ids: [],
    new_document_ids: [],
    query: null,
    keywords: null,
    date_from: null,
    date_to: null,
    max_results: null,
    ...over,
  };
}

export function fixtureExecutions(): Execution[] {
  const reasons = ["owner_dead", "daemon_restart", "unknown"] as const;
  const list: Execution[] = [
    baseExecution(1, {
      execution_type: "deep_dive",
      routine_id: 1,
      saved_configuration_id: 1,
      saved_configuration_name: "Weekly turbulence dive",
      parameters: {
        query: "diffusion turbulence",
        repositories: ["arxiv", "ieee", "openalex", "semantic_scholar"],
      },
      result_count: 12,
      new_result_count: 3,
      log_path: "/does/not/exist/run-0.log",
      result_path: "/does/not/exist/run-0.json",
      progress_events:
        '[{"stage": "search", "source": "arxiv", "count": 9}, {"stage": "search", "source": "openalex", "count": 3}, {"stage": "dedup", "removed": 1}]',
      dedup: { total: 12, new: 9, duplicates: 2, invalid: 1, cross_source: 1 },
      query: "diffusion turbulence",
      keywords: ["diffusion", "turbulence"],
      sources: [
        outcome("arxiv", "ok", 9, { sent: ['all:"diffusion" AND all:"turbulence"'] }),
        outcome("ieee", "skipped_missing_key", 0, {
          zero_reason: "missing_credential",
          recorded_at: "2026-02-01 07:28:00",
        }),
        outcome("openalex", "ok", 3, {
          recorded_at: "2026-02-01 06:14:00",
          sent: ["search=diffusion turbulence"],
        }),
        outcome("semantic_scholar", "error", 0, {
          zero_reason: "upstream_error",
          error_message: "HTTP 503 from the upstream",
          recorded_at: "2026-02-01 06:51:00",
        }),
      ],
      document_ids: [1, 2, 8],
      new_document_ids: [8],
    }),
    baseExecution(2, {
      start_time: "2026-02-02T06:00:00",
      end_time: "2026-02-02T06:12:00",
      status: "failed",
      saved_configuration_id: 2,
      saved_configuration_name: "Broad sweep",
      result_count: 13,
      new_result_count: 4,
      error_message: "Upstream returned HTTP 503",
      query: "diffusion",
      keywords: ["diffusion"],
      selection: ["crossref"],
      sources: [
        outcome("crossref", "error", 0, {
          zero_reason: "upstream_failure",
          zero_detail: { status: 503 },
          error_message: "HTTP 503",
        }),
      ],
    }),
    baseExecution(3, {
      execution_type: "automated_sweep",
      routine_id: 2,
      start_time: "2026-02-03T06:00:00",
      end_time: "2026-02-03T06:12:00",
      result_count: 7,
      new_result_count: 5,
      dedup: { total: 7, new: 7, duplicates: 0, invalid: 0, cross_source: 0 },
      query: "retraction",
      keywords: ["retraction"],
      selection: ["europepmc"],
      sources: [outcome("europepmc", "ok", 7, { recorded_at: "2026-02-03 06:10:00", sent: ["retraction"] })],
      document_ids: [7],
      new_document_ids: [7],
    }),
    baseExecution(4, {
      execution_type: "deep_dive",
      start_time: "2026-02-04T06:00:00",
      end_time: "2026-02-04T06:12:00",
      status: "cancelled",
      cancel_reason: "user cancelled from the Dashboard",
      query: "vaccine",
      sources: [outcome("pubmed", "cancelled", 0, { zero_reason: "cancelled" })],
    }),
    baseExecution(5, {
      start_time: "2026-02-05T06:00:00",
      end_time: "2026-11-30T05:59:00.000000+00:00",
      status: "interrupted",
      current_stage: "querying sources",
      interrupted_reason: "owner_dead",
      query: "quantum error correction",
    }),
  ];
  reasons.forEach((reason, i) => {
    const id = 6 + i;
    list.push(
      baseExecution(id, {
        execution_type: "automated_sweep",
        routine_id: 2,
        start_time: `2026-02-${10 + i}T04:00:00`,
        end_time: `2026-02-${10 + i}T04:05:00`,
        status: "interrupted",
        interrupted_reason: reason,
        parameters: { query: "retraction", repositories: ["europepmc"] },
        query: "retraction",
        keywords: ["retraction"],
        selection: ["europepmc"],
      }),
    );
  });
  list.push(
    baseExecution(9, {
      execution_type: "automated_sweep",
      routine_id: 2,
      start_time: "2026-02-13T04:30:00",
      end_time: "2026-02-13T04:41:00",
      result_count: 4,
      new_result_count: 1,
      restarted_from: 6,
      request_id: "00000000-0000-4000-8001-000000000042",
      parameters: { query: "retraction", repositories: ["europepmc"] },
      query: "retraction",
      keywords: ["retraction"],
      selection: ["europepmc"],
      sources: [outcome("europepmc", "ok", 4, { recorded_at: "2026-02-13 04:40:00", sent: ["retraction"] })],
      document_ids: [7],
    }),
  );
  return list;
}

/** bioRxiv/medRxiv cannot be asked for words: resmon reads a dated range newest first, and may stop part-way. */
function preprintRun(id: number, day: number, docs: number[]): Execution {
  const start = `2026-05-${pad(day)}T05:00:00`;
  const from = `2026-05-${pad(day - 3)}`;
  const sentence = `No start date was given, so resmon asked this source for the 3 days before the run started (from ${from}).`;
  const defaultStart = { date_from: from, days: 3, before: "run", sentence };
  const inPart = day % 2 === 0;
  return baseExecution(id, {
    execution_type: "automated_sweep",
    routine_id: 4,
    start_time: start,
    end_time: `2026-05-${pad(day)}T05:01:40`,
    result_count: docs.length,
    new_result_count: Math.min(docs.length, 2),
    owner_runtime_id: OLD_RUNTIME,
    parameters: {
      query: "protein folding",
      repositories: ["biorxiv", "medrxiv", "europepmc"],
      default_starts: { biorxiv: defaultStart, medrxiv: defaultStart },
    },
    query: "protein folding",
    keywords: ["protein", "folding"],
    selection: ["biorxiv", "medrxiv", "europepmc"],
    sources: [
      outcome("biorxiv", "ok", docs.length, {
        recorded_at: `2026-05-${pad(day)} 05:00:45`,
        in_part: inPart,
        zero_reason: inPart ? "answered_in_part" : null,
        zero_detail: inPart
          ? {
              read: {
                order: "newest_first",
                records_read: 1800,
                records_total: 4100,
                read_from: `2026-05-${pad(day - 1)}`,
                read_to: start.slice(0, 10),
              },
            }
          : null,
        sent: [`details/biorxiv/${from}/${start.slice(0, 10)}`],
      }),
      outcome("medrxiv", "ok", 0, {
        recorded_at: `2026-05-${pad(day)} 05:01:30`,
        in_part: !inPart,
        zero_reason: inPart ? "answered_empty" : "answered_in_part",
        zero_detail: inPart
          ? null
          : {
              read: {
                order: "newest_first",
                records_read: 900,
                records_total: 2300,
                read_from: `2026-05-${pad(day - 1)}`,
                read_to: start.slice(0, 10),
              },
            },
        sent: [`details/medrxiv/${from}/${start.slice(0, 10)}`],
      }),
      outcome("europepmc", "ok", 0, {
        recorded_at: `2026-05-${pad(day)} 05:01:35`,
        zero_reason: "upstream_failure",
        zero_detail: { detail: "timeout" },
        sent: ['"protein folding"'],
      }),
    ],
    document_ids: docs,
    new_document_ids: docs.slice(0, 2),
  });
}

/**
 * The run history after the named rows (ids from 10): one big graph-learning run, the preprint
 * watch's runs, then routine fires and manual sweeps in every final status.
 */
export function historyExecutions(
  rng: Rng,
  papers: Paper[],
  size: { graphRun: number; extraRuns: number },
): Execution[] {
  const runs: Execution[] = [];
  let id = 10;

  // Graph learning digest: one big run, so its coverage audit has totals beyond the 25-row lists.
  const graph = papersOnTopic(papers, 1);
  const offTopic = papers
    .filter((p) => p.id > 8 && !graph.includes(p))
    .slice(0, Math.ceil(size.graphRun / 5));
  const graphDocs = [...graph.filter((_, i) => i % 2 === 0).slice(0, size.graphRun), ...offTopic].map(
    (p) => p.id,
  );
  runs.push(
    baseExecution(id, {
      execution_type: "automated_sweep",
      routine_id: 3,
      start_time: "2026-06-01T06:30:00",
      end_time: "2026-06-01T06:44:10",
      result_count: graphDocs.length,
      new_result_count: graphDocs.length,
      parameters: { query: "graph neural network", repositories: ["arxiv", "semantic_scholar", "openalex"] },
      query: "graph neural network",
      keywords: ["graph", "neural", "network"],
      selection: ["arxiv", "semantic_scholar", "openalex"],
      dedup: { total: graphDocs.length, new: graphDocs.length, duplicates: 0, invalid: 0, cross_source: 0 },
      sources: [
        outcome("arxiv", "ok", Math.ceil(graphDocs.length / 2), {
          recorded_at: "2026-06-01 06:35:00",
          sent: ['all:"graph" AND all:"neural" AND all:"network"'],
        }),
        outcome("semantic_scholar", "ok", Math.floor(graphDocs.length / 2), {
          recorded_at: "2026-06-01 06:40:00",
          sent: ["query=graph neural network"],
        }),
        outcome("openalex", "ok", 0, {
          recorded_at: "2026-06-01 06:44:00",
          zero_reason: "answered_empty",
          sent: ["search=graph neural network"],
        }),
      ],
      document_ids: graphDocs,
      new_document_ids: graphDocs,
    }),
  );
  id++;

  // Preprint watch runs: bioRxiv/medRxiv default starts, answered in part.
  const folding = papersOnTopic(papers, 2).filter(
    (p) => p.source_repository === "biorxiv" || p.source_repository === "medrxiv",
  );
  for (let day = 10; day < 10 + Math.max(3, Math.min(8, size.extraRuns / 5)); day++) {
    runs.push(
      preprintRun(id, day, [5, ...folding.slice((day - 10) * 3, (day - 10) * 3 + 3).map((p) => p.id)]),
    );
    id++;
  }

  // Further history: routine fires and manual sweeps, in every final status.
  const statuses = ["completed", "completed", "completed", "failed", "cancelled", "interrupted"] as const;
  for (let n = 0; n < size.extraRuns; n++) {
    const routineId = n % 3 === 0 ? null : (n % 2) + 1;
    const topicIndex = routineId === 1 ? 0 : routineId === 2 ? 7 : rng.int(0, TOPICS.length - 1);
    const topic = topicAt(topicIndex);
    const pool = papersOnTopic(papers, topicIndex);
    const docs = pool.slice(0, rng.int(0, Math.min(12, pool.length))).map((p) => p.id);
    const status = statuses[n % statuses.length] ?? "completed";
    const month = 6 + Math.floor(n / 9);
    const day = 1 + ((n * 3) % 27);
    const source = routineId === 2 ? "europepmc" : rng.pick(["arxiv", "openalex", "crossref", "pubmed"]);
    runs.push(
      baseExecution(id, {
        execution_type: routineId ? "automated_sweep" : rng.pick(["deep_sweep", "deep_dive"]),
        routine_id: routineId,
        start_time: `2026-${pad(month)}-${pad(day)}T0${n % 9}:00:00`,
        end_time:
          status === "interrupted"
            ? `2026-${pad(month)}-${pad(day)}T0${n % 9}:02:00`
            : `2026-${pad(month)}-${pad(day)}T0${n % 9}:09:00`,
        status,
        interrupted_reason:
          status === "interrupted"
            ? ((["owner_dead", "daemon_restart", "unknown"] as const)[n % 3] ?? "unknown")
            : null,
        cancel_reason: status === "cancelled" ? "user cancelled from the Dashboard" : null,
        error_message: status === "failed" ? "Every selected source failed to answer." : null,
        result_count: status === "completed" ? docs.length : 0,
        new_result_count: status === "completed" ? Math.floor(docs.length / 2) : 0,
        parameters: { query: topic.words.join(" "), repositories: [source] },
        query: topic.words.join(" "),
        keywords: [...topic.words],
        selection: [source],
        sources:
          status === "cancelled"
            ? [outcome(source, "cancelled", 0, { zero_reason: "cancelled" })]
            : status === "failed"
              ? [
                  outcome(source, "error", 0, {
                    zero_reason: "upstream_failure",
                    zero_detail: { detail: "connect" },
                    error_message: "connection refused",
                  }),
                ]
              : status === "completed"
                ? [
                    outcome(source, "ok", docs.length, {
                      zero_reason: docs.length ? null : "answered_empty",
                      recorded_at: `2026-${pad(month)}-${pad(day)} 0${n % 9}:05:00`,
                      sent: [topic.words.join(" ")],
                    }),
                  ]
                : [],
        document_ids: status === "completed" ? docs : [],
        new_document_ids: status === "completed" ? docs.slice(0, Math.floor(docs.length / 2)) : [],
      }),
    );
    id++;
  }
  return runs;
}
